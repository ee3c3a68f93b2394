/**
 * Zero-step verification from build artifacts, end to end on anvil: a Foundry project, a
 * Hardhat 2 and a Hardhat 3 project made by code (the solc fixture compiled into each tool's
 * build-info shape); `scoutkit index --artifacts` verifies the contracts already stored at start
 * and those it indexes, `/api/v2/smart-contracts/{h}` serves them with name, ABI and sources, a
 * contract matching no artifact stays unverified; `scoutkit verify` for one address (from
 * artifacts, and by compiling standard JSON); `scoutkit serve --artifacts` verifying what
 * another process indexes. Per-contract times are printed (no compile: milliseconds).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { getAddress } from 'viem';
import { startAnvil } from '../../demo/anvil.ts';
import type { Anvil } from '../../demo/anvil.ts';
import { runIndexCommand } from '../../host/commands/index.ts';
import { parseVerifyArgs, runVerifyCommand } from '../../host/commands/verify.ts';
import { createSqlContractStore, openSqlStore } from '../../adapters/sql/index.ts';
import { createExplorer, toJson } from '../../lib/index.ts';
import type { Address, Hex } from '../../lib/domain/records.ts';
import { hex } from '../../lib/domain/hex.ts';
import { IMMUTABLES, LIBRARY, PROXY, TOKEN, build, compilerDir, deploy, link, proxyArgs, standardJson, tokenArgs } from '../adapters/solc/fixture.ts';
import type { Deployed } from '../adapters/solc/fixture.ts';
import { longVersion, writeFoundryBareBuild, writeFoundryBuild, writeHardhat2Build, writeHardhat3Build } from '../support/buildInfo.ts';
import { startScoutkit } from './child.ts';

type Body = Record<string, unknown>;

let anvil: Anvil;
const root = await mkdtemp(join(tmpdir(), 'scoutkit-artifacts-'));
const forge = join(root, 'forge-project');
const hh2 = join(root, 'hh2-project');
const hh3 = join(root, 'hh3-project');
const db = `sqlite:${join(root, 'chain.sqlite')}`;

const forgeInput = standardJson({ 'src/Token.sol': TOKEN, 'src/MathLib.sol': LIBRARY, 'src/Immutables.sol': IMMUTABLES });
const hh2Input = standardJson({ 'contracts/Proxy.sol': PROXY });
const hh3Input = standardJson({ 'project/contracts/Token.sol': TOKEN }, { optimizer: { enabled: false, runs: 200 } });
// the same Token with other settings: in no artifact
const oddInput = standardJson({ 'src/Token.sol': TOKEN }, { optimizer: { enabled: true, runs: 999 }, evmVersion: 'cancun' });

const built = { ...build(forgeInput), ...build(hh2Input) };
const hh3Built = build(hh3Input, 'solc-0.8.19');
const oddBuilt = build(oddInput);
const code = (all: ReturnType<typeof build>, name: string): string => {
  const c = all[name];
  if (c === undefined) throw new Error(`no ${name}`);
  return c.bytecode;
};
const at: Record<string, Deployed> = {};
const addr = (name: string): Address => {
  const d = at[name];
  if (d === undefined) throw new Error(`not deployed: ${name}`);
  return d.address;
};
const uint = (n: bigint): Hex => hex(`0x${n.toString(16).padStart(64, '0')}`);

t.before(async () => {
  anvil = await startAnvil();
  await writeFoundryBuild(forge, forgeInput);
  await writeHardhat2Build(hh2, hh2Input);
  await writeHardhat3Build(hh3, hh3Input, 'solc-0.8.19');
});
t.teardown(async () => {
  await anvil?.stop();
  await rm(root, { recursive: true, force: true });
});

function capture(): { io: { stdout: { write(s: string): void; isTTY: boolean }; stderr: { write(s: string): void } }; text(): string; clear(): void } {
  const out: string[] = [];
  return {
    io: { stdout: { write: (s: string) => void out.push(s), isTTY: false }, stderr: { write: (s: string) => void out.push(s) } },
    text: () => out.join(''),
    clear: () => void (out.length = 0),
  };
}

async function explorer(dbUrl: string): Promise<{ get(path: string): Promise<Body>; close(): Promise<void> }> {
  const store = await openSqlStore(dbUrl);
  const ex = createExplorer({ chains: { '31337': { store, contracts: createSqlContractStore(store) } } });
  return {
    get: async (path) => JSON.parse(toJson((await ex.handle({ path: `/api/v2${path}`, query: {} })).body)) as Body,
    close: () => store.close(),
  };
}

const times = (text: string): number[] => [...text.matchAll(/^.*verified 0x[0-9a-f]{40} as .* in ([\d.]+) ms$/gm)].map((m) => Number(m[1]));

t.test('scoutkit index --artifacts: the stored contracts at start, then each one indexed; served verified', async (t) => {
  at['token'] = await deploy(anvil.url, code(built, 'src/Token.sol:Token'), tokenArgs());
  at['lib'] = await deploy(anvil.url, code(built, 'src/MathLib.sol:MathLib'));
  at['usesLib'] = await deploy(anvil.url, link(code(built, 'src/MathLib.sol:UsesLib'), addr('lib')));
  at['immutables'] = await deploy(anvil.url, code(built, 'src/Immutables.sol:Immutables'), uint(1234n));
  at['odd'] = await deploy(anvil.url, code(oddBuilt, 'src/Token.sol:Token'), tokenArgs());
  // the same code at another address: a bytecode twin, matched once
  at['twin'] = await deploy(anvil.url, code(built, 'src/Token.sol:Token'), tokenArgs());
  const out = capture();
  t.equal(await runIndexCommand(['--rpc', anvil.url, '--db', db], out.io), 0, 'indexed without artifacts first');

  at['impl'] = await deploy(anvil.url, code(built, 'contracts/Proxy.sol:Implementation'));
  at['proxy'] = await deploy(anvil.url, code(built, 'contracts/Proxy.sol:Proxy1967'), proxyArgs(addr('impl'), built['contracts/Proxy.sol:Implementation']?.abi ?? []));
  at['hh3Token'] = await deploy(anvil.url, code(hh3Built, 'project/contracts/Token.sol:Token'), tokenArgs());
  out.clear();
  // the project root, and a project's artifacts/ directory: both forms
  t.equal(await runIndexCommand(['--rpc', anvil.url, '--db', db, '--artifacts', forge, '--artifacts', join(hh2, 'artifacts')], out.io), 0);
  const text = out.text();
  t.match(text, /artifacts: 6 compiled contract\(s\) from 2 build-info file\(s\)/);
  for (const [name, as] of [
    ['token', 'src/Token.sol:Token'],
    ['lib', 'src/MathLib.sol:MathLib'],
    ['usesLib', 'src/MathLib.sol:UsesLib'],
    ['immutables', 'src/Immutables.sol:Immutables'],
    ['impl', 'contracts/Proxy.sol:Implementation'],
    ['proxy', 'contracts/Proxy.sol:Proxy1967'],
  ] as const) {
    t.match(text, new RegExp(`verified ${addr(name)} as ${as.replace(/\./g, '\\.')} \\(full match\\) in [\\d.]+ ms`), `${name}: verified`);
  }
  t.match(text, /artifacts: 6 contract\(s\) verified, 2 not matching any artifact/, 'the odd Token and the Hardhat 3 one (not given) match nothing');
  const ms = times(text);
  t.equal(ms.length, 6);
  // a figure, not a check (timings belong to benchmarks): no compile, so milliseconds per contract
  t.comment(`verification from artifacts, per contract (ms): ${ms.map((x) => x.toFixed(2)).join(', ')}`);

  const ex = await explorer(db);
  t.teardown(() => ex.close());
  const token = await ex.get(`/smart-contracts/${addr('token')}`);
  t.match(token, {
    is_verified: true,
    is_fully_verified: true,
    is_partially_verified: false,
    name: 'Token',
    compiler_version: `v${longVersion('solc')}`,
    optimization_enabled: true,
    optimization_runs: 200,
    evm_version: 'cancun',
    file_path: 'src/Token.sol',
    source_code: TOKEN,
    additional_sources: [],
    license_type: 'mit',
    language: 'solidity',
    constructor_args: tokenArgs(),
  });
  t.ok((token['abi'] as Body[]).some((i) => i['name'] === 'transfer'), 'the ABI');
  t.same(token['compiler_settings'], { ...forgeInput.settings, outputSelection: { '*': { '*': ['abi', 'metadata', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers'], '': ['ast'] } } }, 'the settings as built');
  const usesLib = await ex.get(`/smart-contracts/${addr('usesLib')}`);
  t.match(usesLib, { is_verified: true, name: 'UsesLib', license_type: 'apache_2_0' });
  t.same(usesLib['external_libraries'], [{ name: 'src/MathLib.sol:MathLib', address_hash: getAddress(addr('lib')) }], 'the linked library');
  t.match(await ex.get(`/smart-contracts/${addr('immutables')}`), { is_verified: true, name: 'Immutables', constructor_args: uint(1234n), license_type: 'gnu_gpl_v3' });
  t.match(await ex.get(`/smart-contracts/${addr('proxy')}`), { is_verified: true, name: 'Proxy1967', file_path: 'contracts/Proxy.sol', source_code: PROXY });
  t.match(await ex.get(`/smart-contracts/${addr('impl')}`), { is_verified: true, name: 'Implementation' });
  t.match(await ex.get(`/smart-contracts/${addr('twin')}`), { is_verified: false, verified_twin_address_hash: getAddress(addr('token')), name: 'Token', source_code: TOKEN }, 'the twin: shown with its twin’s sources');
  const odd = await ex.get(`/smart-contracts/${addr('odd')}`);
  t.notOk(odd['is_verified'], 'a contract matching no artifact stays unverified');
  t.notOk(odd['name'], 'and nameless');
  t.notOk((await ex.get(`/smart-contracts/${addr('hh3Token')}`))['is_verified'], 'the Hardhat 3 one: not given yet');
  const address = await ex.get(`/addresses/${addr('token')}`);
  t.match(address, { is_verified: true, name: 'Token' }, 'the address shows it verified');
});

t.test('scoutkit verify: one address from artifacts (Hardhat 3), a mismatch, and by compiling standard JSON', async (t) => {
  const out = capture();
  t.equal(await runVerifyCommand(['--db', db, '--address', addr('hh3Token'), '--artifacts', hh3], out.io), 0);
  t.match(out.text(), new RegExp(`verified ${addr('hh3Token')} as project/contracts/Token\\.sol:Token \\(full match\\) in [\\d.]+ ms`));
  t.comment(out.text().trim());

  out.clear();
  t.equal(await runVerifyCommand(['--db', db, '--address', addr('odd'), '--artifacts', forge], out.io), 1, 'no artifact matches: exit 1');
  t.match(out.text(), new RegExp(`not verified ${addr('odd')}: Fail - Unable to verify: no contract of the artifacts matches the deployed code`));

  out.clear();
  t.equal(await runVerifyCommand(['--db', db, '--address', '0x00000000000000000000000000000000000000aa', '--artifacts', forge], out.io), 1);
  t.match(out.text(), /not verified 0x0+aa: The address is not a smart contract/);

  const compilers = await compilerDir(['solc']);
  t.teardown(() => rm(compilers, { recursive: true, force: true }));
  const file = join(root, 'odd.json');
  await writeFile(file, JSON.stringify(oddInput));
  out.clear();
  const args = ['--db', db, '--address', addr('odd'), '--standard-json', file, '--contract', 'src/Token.sol:Token', '--compiler-version', `v${longVersion('solc')}`, '--compilers', compilers, '--offline'];
  t.equal(await runVerifyCommand(args, out.io), 0, 'compiled and verified');
  t.match(out.text(), new RegExp(`verified ${addr('odd')} as src/Token\\.sol:Token \\(full match\\)`));
  t.comment(`standard JSON (a compile): ${out.text().trim()}`);

  const ex = await explorer(db);
  t.teardown(() => ex.close());
  t.match(await ex.get(`/smart-contracts/${addr('hh3Token')}`), { is_verified: true, name: 'Token', compiler_version: `v${longVersion('solc-0.8.19')}`, optimization_enabled: false, file_path: 'project/contracts/Token.sol' });
  t.match(await ex.get(`/smart-contracts/${addr('odd')}`), { is_verified: true, optimization_runs: 999 });

  t.throws(() => parseVerifyArgs(['--address', addr('odd'), '--artifacts', forge]), /--db/);
  t.throws(() => parseVerifyArgs(['--db', db, '--address', '0x12', '--artifacts', forge]), /--address/);
  t.throws(() => parseVerifyArgs(['--db', db, '--address', addr('odd')]), /either --artifacts/);
  t.throws(() => parseVerifyArgs(['--db', db, '--address', addr('odd'), '--artifacts', forge, '--standard-json', file]), /either --artifacts/);
  t.throws(() => parseVerifyArgs(['--db', db, '--address', addr('odd'), '--standard-json', file]), /--contract/);
  t.throws(() => parseVerifyArgs(['--db', db, '--address', addr('odd'), '--artifacts', forge, '--library', 'X=0x12']), /--library/);
});

t.test('--artifacts that cannot be used: a clear error before indexing', async (t) => {
  const bare = join(root, 'bare-project');
  await writeFoundryBareBuild(bare);
  const out = capture();
  await t.rejects(runIndexCommand(['--rpc', anvil.url, '--db', db, '--artifacts', bare], out.io), /build_info = true in foundry\.toml, or forge build --build-info/);
  await t.rejects(runIndexCommand(['--rpc', anvil.url, '--db', db, '--artifacts', join(root, 'nowhere')], out.io), /--artifacts .*nowhere: no such directory/);
  await t.rejects(runIndexCommand(['--rpc', anvil.url, '--db', db, '--artifacts', root], out.io), /no build-info directory in it/);
  t.equal(out.text(), '', 'nothing indexed');
});

t.test('scoutkit serve --artifacts: verifies what is stored, then what another process indexes', async (t) => {
  const served = `sqlite:${join(root, 'served.sqlite')}`;
  t.equal(await runIndexCommand(['--rpc', anvil.url, '--db', served], capture().io), 0);
  const child = startScoutkit(['serve', '--db', served, '--port', '0', '--artifacts', forge]);
  t.teardown(() => child.stop());
  const listening = await child.waitFor((l) => l.msg === 'listening');
  const url = String(listening['url']);
  const verified = await child.waitFor((l) => l.msg === 'contract verified' && l['address'] === addr('token'));
  t.match(verified, { name: 'Token', file: 'src/Token.sol', match: 'full' });
  t.comment(`serve: ${addr('token')} verified in ${String(verified['ms'])} ms`);
  const token = (await (await fetch(`${url}/api/v2/smart-contracts/${addr('token')}`)).json()) as Body;
  t.match(token, { is_verified: true, name: 'Token', source_code: TOKEN });

  // another process (this one) indexes a new contract: serve sees it through the store's feed
  at['immutables2'] = await deploy(anvil.url, code(built, 'src/Immutables.sol:Immutables'), uint(99n));
  t.equal(await runIndexCommand(['--rpc', anvil.url, '--db', served], capture().io), 0);
  await child.waitFor((l) => l.msg === 'contract verified' && l['address'] === addr('immutables2'), 20_000);
  const imm = (await (await fetch(`${url}/api/v2/smart-contracts/${addr('immutables2')}`)).json()) as Body;
  t.match(imm, { is_verified: true, name: 'Immutables', constructor_args: uint(99n) });
});
