// The demo ships its contracts precompiled (demo/artifacts.ts): recompiling demo/contracts/*.sol
// with the installed solc must give exactly the checked-in module.
import { readFile } from 'node:fs/promises';
import t from 'tap';
import { CONTRACTS, RUNTIME, SOLC_VERSION, SOURCES } from '../../demo/artifacts.ts';
import { artifactsFile, compileContracts, renderArtifacts } from '../../demo/compile.ts';

const compilation = await compileContracts();

t.equal(
  renderArtifacts(compilation) === (await readFile(artifactsFile, 'utf8')),
  true,
  'demo/artifacts.ts is up to date with demo/contracts (else: npm run build:contracts)',
);
t.equal(SOLC_VERSION, compilation.solc, 'compiled by the installed solc');
t.same(Object.keys(CONTRACTS).sort(), Object.keys(compilation.contracts).sort(), 'every deployable contract');
for (const [name, c] of Object.entries(CONTRACTS)) {
  t.match(c.bytecode, /^0x60[0-9a-f]+$/, `${name}: creation bytecode`);
  // what verifies it without compiling (scoutkit demo): its runtime code and the files it was compiled from
  const r = RUNTIME[name];
  t.match(r?.deployedBytecode, /^0x[0-9a-f]+$/, `${name}: runtime code`);
  t.ok(r !== undefined && r.sources.includes(r.file) && r.sources.every((f) => typeof SOURCES[f] === 'string'), `${name}: its sources are kept`);
}
t.same(Object.keys(SOURCES).sort(), Object.keys(compilation.sources).sort(), 'every source file');
