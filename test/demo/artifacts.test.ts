// The demo ships its contracts precompiled (demo/artifacts.ts): recompiling demo/contracts/*.sol
// with the installed solc must give exactly the checked-in module.
import { readFile } from 'node:fs/promises';
import t from 'tap';
import { CONTRACTS, SOLC_VERSION } from '../../demo/artifacts.ts';
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
}
