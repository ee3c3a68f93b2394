// Build-info files → candidate contracts (lib/contracts/artifacts.ts): Foundry's, Hardhat 2's and
// Hardhat 3's shapes, made by code with the solc fixture; what each lacks said clearly; the set
// keeps a contract once and finds candidates by code length; SPDX → Blockscout license types.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { artifactSet, ArtifactsError, contractsOfBuildInfo, hex, licenseTypeOf } from '../../../lib/index.ts';
import type { BuildInfoContracts } from '../../../lib/index.ts';
import type { Hex } from '../../../lib/domain/records.ts';
import { IMMUTABLES, LIBRARY, TOKEN, standardJson } from '../../adapters/solc/fixture.ts';
import { longVersion, writeFoundryBareBuild, writeFoundryBuild, writeHardhat2Build, writeHardhat3Build } from '../../support/buildInfo.ts';

const root = await mkdtemp(join(tmpdir(), 'scoutkit-build-info-'));
t.teardown(() => rm(root, { recursive: true, force: true }));

async function read(dir: string): Promise<BuildInfoContracts> {
  const names = (await readdir(dir)).sort();
  const info = names.find((n) => !n.endsWith('.output.json'));
  const output = names.find((n) => n.endsWith('.output.json'));
  const json = async (n: string | undefined): Promise<unknown> => (n === undefined ? undefined : JSON.parse(await readFile(join(dir, n), 'utf8')));
  return contractsOfBuildInfo(await json(info), await json(output));
}

const version = `v${longVersion('solc')}`;

t.test('Foundry: paths, 0x-stripped code, immutables and link references, the long version, the files each contract uses', async (t) => {
  const dir = await writeFoundryBuild(join(root, 'foundry'), standardJson({ 'src/Token.sol': TOKEN, 'src/MathLib.sol': LIBRARY, 'src/Immutables.sol': IMMUTABLES }));
  const build = await read(dir);
  t.equal(build.format, 'foundry');
  t.match(build.id, /^[0-9a-f]{32}$/);
  t.same(build.contracts.map((c) => `${c.file}:${c.name}`).sort(), ['src/Immutables.sol:Immutables', 'src/MathLib.sol:MathLib', 'src/MathLib.sol:UsesLib', 'src/Token.sol:Token']);
  for (const c of build.contracts) {
    t.equal(c.compilerVersion, version, `${c.name}: the long version`);
    t.match(c.runtime, /^[0-9a-f_$]+$/, `${c.name}: runtime without 0x`);
    t.notOk(c.creation.startsWith('0x'), `${c.name}: creation without 0x`);
    t.same(Object.keys(c.sources), [c.file], `${c.name}: only its own file (its metadata's sources)`);
    t.same(c.settings['optimizer'], { enabled: true, runs: 200 });
  }
  const imm = build.contracts.find((c) => c.name === 'Immutables');
  t.equal(Object.keys(imm?.immutables ?? {}).length, 2, 'two immutables referenced');
  const uses = build.contracts.find((c) => c.name === 'UsesLib');
  t.same(Object.keys(uses?.runtimeLinks['src/MathLib.sol'] ?? {}), ['MathLib'], 'the linked library');
  t.ok(build.contracts.find((c) => c.name === 'Token')?.abi.length, 'the ABI');

  const bare = await writeFoundryBareBuild(join(root, 'bare'));
  t.throws(() => contractsOfBuildInfo(JSON.parse(JSON.stringify({ id: 'x', source_id_to_path: {}, language: 'Solidity' }))), /build_info = true in foundry\.toml, or forge build --build-info/);
  await t.rejects(read(bare), ArtifactsError, 'the bare build info of a Foundry project without build_info');
});

t.test('Hardhat 2 and Hardhat 3 (output in its own file)', async (t) => {
  const hh2 = await read(await writeHardhat2Build(join(root, 'hh2'), standardJson({ 'contracts/Token.sol': TOKEN })));
  t.equal(hh2.format, 'hardhat2');
  t.same(hh2.contracts.map((c) => [c.file, c.name, c.compilerVersion]), [['contracts/Token.sol', 'Token', version]]);
  const hh3dir = await writeHardhat3Build(join(root, 'hh3'), standardJson({ 'project/contracts/Token.sol': TOKEN }, { optimizer: { enabled: false, runs: 200 } }), 'solc-0.8.19');
  const hh3 = await read(hh3dir);
  t.equal(hh3.format, 'hardhat3');
  t.match(hh3.id, /^solc-0_8_19-[0-9a-f]+$/);
  t.same(hh3.contracts.map((c) => [c.file, c.name, c.compilerVersion]), [['project/contracts/Token.sol', 'Token', `v${longVersion('solc-0.8.19')}`]]);
  const info = JSON.parse(await readFile(join(hh3dir, `${hh3.id}.json`), 'utf8')) as unknown;
  t.throws(() => contractsOfBuildInfo(info), /output file \(solc-0_8_19-[0-9a-f]+\.output\.json\) is missing/, 'Hardhat 3 without its output file');
  t.throws(() => contractsOfBuildInfo(info, { _format: 'something-else' }), /not hh3-sol-build-info-output-1/);
});

t.test('bad shapes: a clear error each; other languages left out', async (t) => {
  t.throws(() => contractsOfBuildInfo(null), /not a build-info object/);
  t.throws(() => contractsOfBuildInfo({ id: 'x' }), /no "_format"/);
  t.throws(() => contractsOfBuildInfo({ _format: 'truffle-1', id: 'x' }), /unknown build-info format "truffle-1"/);
  t.throws(() => contractsOfBuildInfo({ _format: 'hh-sol-build-info-1', id: 'x', input: {} }), /no standard-JSON input with sources/);
  t.throws(() => contractsOfBuildInfo({ _format: 'hh-sol-build-info-1', id: 'x', input: { sources: {} } }), /no compiler output/);
  t.throws(
    () => contractsOfBuildInfo({ _format: 'hh-sol-build-info-1', id: 'x', input: { sources: { 'a.sol': { content: '' } } }, output: { contracts: { 'a.sol': { A: { evm: { deployedBytecode: { object: '6000' } } } } } } }),
    /no solc long version/,
  );
  t.same(contractsOfBuildInfo({ _format: 'hh-sol-build-info-1', id: 'v', solcLongVersion: '0.3.10', input: { language: 'Vyper', sources: {} }, output: {} }).contracts, [], 'Vyper: nothing to match (no Vyper here)');
});

t.test('the set: each contract once, candidates by runtime length', async (t) => {
  const input = standardJson({ 'src/Token.sol': TOKEN, 'src/Immutables.sol': IMMUTABLES });
  const a = await read(await writeFoundryBuild(join(root, 'twice-a'), input));
  const b = await read(await writeFoundryBuild(join(root, 'twice-b'), input));
  const set = artifactSet([...a.contracts, ...b.contracts]);
  t.equal(set.contracts.length, 2, 'an incremental build repeating a contract: kept once');
  const token = set.contracts.find((c) => c.name === 'Token');
  t.same(set.candidates(`0x${token?.runtime ?? ''}` as Hex).map((c) => c.name), ['Token']);
  t.same(set.candidates(hex('0x6000')), []);
});

t.test('SPDX → license_type', async (t) => {
  t.equal(licenseTypeOf('MIT'), 'mit');
  t.equal(licenseTypeOf('Apache-2.0'), 'apache_2_0');
  t.equal(licenseTypeOf('GPL-3.0-or-later'), 'gnu_gpl_v3');
  t.equal(licenseTypeOf('LGPL-2.1-only'), 'gnu_lgpl_v2_1');
  t.equal(licenseTypeOf('AGPL-3.0'), 'gnu_agpl_v3');
  t.equal(licenseTypeOf('BUSL-1.1'), 'bsl_1_1');
  t.equal(licenseTypeOf('Unlicense'), 'unlicense');
  t.equal(licenseTypeOf('UNLICENSED'), 'none');
  t.equal(licenseTypeOf('MIT OR Apache-2.0'), 'none', 'an expression: none');
  t.equal(licenseTypeOf(null), 'none');
});
