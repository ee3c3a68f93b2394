/**
 * forge 1.7.1 (npm's `@foundry-rs/forge`), unchanged, as a child process against the server: a
 * Foundry project made by code (the fixture's contracts, OpenZeppelin's ERC1967Proxy from
 * node_modules) is built offline by `forge build` with solc-js behind a small native-solc shim
 * (test/adapters/solc/fixture.ts solcShim); the ERC-20 is deployed to anvil by `forge create`,
 * the others from forge's artifacts (one compile instead of one per `forge create`); the chain
 * is indexed into SQLite and served; then `forge verify-contract --verifier blockscout --watch`
 * verifies an ERC-20 with constructor arguments, a contract with a linked library (listed in
 * `external_libraries`), one with
 * immutables, an EIP-1967 proxy, a contract sent `--flatten`ed, and
 * `--verifier etherscan` a library; `--verifier sourcify --verifier-url http://HOST/` the proxy's
 * implementation (Sourcify's API v2: 202 and a verification id, then `forge verify-check
 * --verifier sourcify <id>`; again: skipped, both matches exact; with `--skip-is-verified-check`:
 * 409, "already fully verified"). Each run ends in forge's "Contract successfully verified"
 * (its status answers counted in a comment: one when the job settles within checkverifystatus's
 * hold, else forge asks again 15 s later) and the contract reads verified, by its name, from `/api/v2/smart-contracts/{h}`;
 * a second run on a verified address is skipped by forge ("already verified", read from getabi).
 * `--verifier etherscan` on anvil's chain needs an `[etherscan]` entry for it in foundry.toml:
 * forge 1.7.1 replaces `--etherscan-api-key` with that entry's key (verify.rs VerifyArgs::run)
 * and, without one, stops at "ETHERSCAN_API_KEY must be set to use Etherscan as a verifier".
 *
 * Offline, by construction: forge's home is a temporary directory whose svm folder holds the
 * shim (`~/.svm/<version>/solc-<version>`, where `Solc::find_or_install` looks before it
 * downloads), `foundry.toml` names the shim (`solc`), `offline = true`, and every process gets a
 * proxy that does not exist for anything but 127.0.0.1 (any fetch from the internet fails the
 * run). `cache = false`: with a cache, `forge verify-contract` takes the compiler version from
 * the cache entry, where forge records it without its build (`0.8.37`), then asks
 * binaries.soliditylang.org/bin/list.txt for the commit (foundry crates/verify/src/verify.rs
 * resolve_context, utils.rs ensure_solc_build_metadata); without one it takes the shim's
 * `--version`, which has it. The server's verifier is offline as well: an empty compiler
 * directory and a download base that refuses (test/support/verifyingServer.ts) — npm's solc,
 * installed, serves its own version.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { encodeAbiParameters, getAddress, getContractAddress } from 'viem';
import type { Abi } from 'viem';
import { startAnvil } from '../../demo/anvil.ts';
import { indexAndServe } from '../support/verifyingServer.ts';
import type { Address, Hex } from '../../lib/domain/records.ts';
import { hex } from '../../lib/domain/hex.ts';
import { deploy, IMMUTABLES, LIBRARY, PROXY, proxyArgs, solcShim, solcVersion, TOKEN, tokenArgs } from '../adapters/solc/fixture.ts';
import { COUNTER } from '../support/verification.ts';
import { DEV_ACCOUNT0, rpc } from '../indexer/helpers.ts';
import { request } from './helpers.ts';

const require = createRequire(import.meta.url);
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { version } = require('solc/package.json') as { version: string };
const longVersion = solcVersion('solc').replace(/\.Emscripten.*$/, '');

/** npm's platform build of forge, beside its `@foundry-rs/forge` wrapper (spawned directly, as demo/anvil.ts spawns anvil) */
function forgeBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const wrapper = require.resolve('@foundry-rs/forge/package.json');
  return createRequire(wrapper).resolve(`@foundry-rs/forge-${process.platform}-${arch}/bin/forge${process.platform === 'win32' ? '.exe' : ''}`);
}
const forgeBin = forgeBinary();

const root = await mkdtemp(join(tmpdir(), 'scoutkit-forge-'));
t.teardown(() => rm(root, { recursive: true, force: true }));
const home = join(root, 'home');
const project = join(root, 'project');
const db = `sqlite:${join(root, 'chain.sqlite')}`;

// forge's solc: the shim, where svm keeps an installed version
const svm = join(home, '.svm', version);
await mkdir(svm, { recursive: true });
const shim = await solcShim(svm);

// the library is deployed second (after `forge create` of the ERC-20), from anvil's first account:
// its address known before the build, which links it (as `libraries` in foundry.toml does)
const mathLibAddress = getContractAddress({ from: DEV_ACCOUNT0, nonce: 1n }).toLowerCase() as Address;
const FOUNDRY_TOML = `[profile.default]
src = "src"
out = "out"
libs = ["lib"]
remappings = ["@openzeppelin/contracts/=lib/openzeppelin-contracts/contracts/"]
solc = ${JSON.stringify(shim)}
offline = true
cache = false
optimizer = true
optimizer_runs = 200
evm_version = "cancun"
libraries = ["src/MathLib.sol:MathLib:${mathLibAddress}"]
`;

await mkdir(join(project, 'src'), { recursive: true });
for (const [file, source] of Object.entries({ 'Token.sol': TOKEN, 'MathLib.sol': LIBRARY, 'Immutables.sol': IMMUTABLES, 'Proxy.sol': PROXY, 'Counter.sol': COUNTER })) {
  await writeFile(join(project, 'src', file), source);
}
// the OpenZeppelin proxy is built (and verified) from the project's lib/, as `forge install` would place it
await writeFile(join(project, 'src', 'ProxyImport.sol'), '// SPDX-License-Identifier: MIT\npragma solidity >=0.8.22;\n\nimport {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";\n');
await cp(join(repo, 'node_modules', '@openzeppelin', 'contracts'), join(project, 'lib', 'openzeppelin-contracts', 'contracts'), { recursive: true });
await writeFile(join(project, 'foundry.toml'), FOUNDRY_TOML);

// no route to anywhere but this machine: a fetch from the internet fails the run
const OFFLINE = { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9', ALL_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1,localhost' };

interface Run {
  readonly code: number;
  readonly out: string;
  readonly ms: number;
}

function forge(args: readonly string[]): Promise<Run> {
  const startedAt = Date.now();
  return new Promise((resolve) => {
    execFile(
      forgeBin,
      args,
      { cwd: project, env: { PATH: process.env['PATH'] ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache'), NO_COLOR: '1', ...OFFLINE }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, out: `${stdout}${stderr}`, ms: Date.now() - startedAt }),
    );
  });
}

const built = await forge(['build']);
if (built.code !== 0) throw new Error(`forge build failed:\n${built.out}`);

interface Artifact {
  readonly abi: Abi;
  /** creation code, hex without 0x (libraries linked by forge) */
  readonly bytecode: string;
}
const artifact = async (file: string, name: string): Promise<Artifact> => {
  const json = JSON.parse(await readFile(join(project, 'out', file, `${name}.json`), 'utf8')) as { abi: Abi; bytecode: { object: string } };
  return { abi: json.abi, bytecode: json.bytecode.object.replace(/^0x/, '') };
};

// anvil started now, just before use (undici reuses its keep-alive socket, which anvil closes when idle)
const anvil = await startAnvil();
t.teardown(() => anvil.stop());
const tokenArgsHex = tokenArgs();
const created = await forge(['create', 'src/Token.sol:Token', '--rpc-url', anvil.url, '--unlocked', '--from', DEV_ACCOUNT0, '--broadcast', '--constructor-args', 'Scout Token', 'SCT', String(1_000_000n * 10n ** 18n)]);
const tokenAddress = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(created.out)?.[1]?.toLowerCase() as Address | undefined;
if (created.code !== 0 || tokenAddress === undefined) throw new Error(`forge create failed:\n${created.out}`);
const immutablesArgs = hex(encodeAbiParameters([{ type: 'uint256' }], [1234n]));
const mathLib = await deploy(anvil.url, (await artifact('MathLib.sol', 'MathLib')).bytecode);
if (mathLib.address !== mathLibAddress) throw new Error(`the library is at ${mathLib.address}, not at ${mathLibAddress} as linked`);
const usesLibArtifact = await artifact('MathLib.sol', 'UsesLib');
if (usesLibArtifact.bytecode.includes('__$')) throw new Error('forge build left UsesLib unlinked');
const usesLib = await deploy(anvil.url, usesLibArtifact.bytecode);
const immutables = await deploy(anvil.url, (await artifact('Immutables.sol', 'Immutables')).bytecode, immutablesArgs);
const implementationArtifact = await artifact('Proxy.sol', 'Implementation');
const implementation = await deploy(anvil.url, implementationArtifact.bytecode);
const proxyArgsHex = proxyArgs(implementation.address, implementationArtifact.abi);
const proxy = await deploy(anvil.url, (await artifact('ERC1967Proxy.sol', 'ERC1967Proxy')).bytecode, proxyArgsHex);
const counter = await deploy(anvil.url, (await artifact('Counter.sol', 'Counter')).bytecode);
const apiUrl = await indexAndServe(t, { rpc: anvil.url, db, chainId: 31337 });
// forge's Etherscan verifier takes its key from the chain's entry in foundry.toml (anvil is no chain it knows)
await writeFile(join(project, 'foundry.toml'), `${FOUNDRY_TOML}\n[etherscan]\nanvil = { key = "x", chain = 31337, url = "${apiUrl}/api" }\n`);

async function contractAt(address: string): Promise<Record<string, unknown>> {
  return (await request(`${apiUrl}/api/v2/smart-contracts/${address}`)).json as Record<string, unknown>;
}

const digits = (h: Hex): string => h.slice(2);

t.test('forge build, offline, solc-js behind the shim', async (t) => {
  t.equal(built.code, 0, 'exit 0');
  t.match(built.out, /Compiler run successful/, "forge's success line");
  t.comment(`forge build: ${built.ms} ms`);
});

t.test('forge create: the ERC-20, with constructor arguments', async (t) => {
  t.equal(created.code, 0, 'exit 0');
  t.equal(tokenAddress, getContractAddress({ from: DEV_ACCOUNT0, nonce: 0n }).toLowerCase(), "deployed from anvil's first account, first");
  const tx = (await rpc(anvil.url, 'eth_getTransactionByHash', [/Transaction hash: (0x[0-9a-f]{64})/.exec(created.out)?.[1]])) as { input: Hex };
  t.ok(tx.input.endsWith(digits(tokenArgsHex)), 'the constructor arguments as the fixture encodes them');
  t.comment(`forge create: ${created.ms} ms`);
});

interface Case {
  readonly kind: string;
  readonly address: Address;
  readonly target: string;
  readonly name: string;
  readonly args?: readonly string[];
  readonly verifier?: 'blockscout' | 'etherscan';
  /** a partial (metadata) match: the sources sent are not those deployed (a flattened file) */
  readonly partial?: boolean;
  /** the libraries `/smart-contracts/{h}` lists (default none) */
  readonly libraries?: readonly { readonly name: string; readonly address_hash: string }[];
}

const CASES: readonly Case[] = [
  { kind: 'constructor arguments', address: tokenAddress, target: 'src/Token.sol:Token', name: 'Token', args: ['--constructor-args', digits(tokenArgsHex)] },
  {
    kind: 'a linked library',
    address: usesLib.address,
    target: 'src/MathLib.sol:UsesLib',
    name: 'UsesLib',
    args: ['--libraries', `src/MathLib.sol:MathLib:${mathLib.address}`],
    libraries: [{ name: 'src/MathLib.sol:MathLib', address_hash: getAddress(mathLib.address) }],
  },
  { kind: 'immutables', address: immutables.address, target: 'src/Immutables.sol:Immutables', name: 'Immutables', args: ['--constructor-args', digits(immutablesArgs)] },
  {
    kind: 'an EIP-1967 proxy (OpenZeppelin)',
    address: proxy.address,
    target: 'lib/openzeppelin-contracts/contracts/proxy/ERC1967/ERC1967Proxy.sol:ERC1967Proxy',
    name: 'ERC1967Proxy',
    args: ['--constructor-args', digits(proxyArgsHex)],
  },
  { kind: '--flatten', address: counter.address, target: 'src/Counter.sol:Counter', name: 'Counter', args: ['--flatten'], partial: true },
  { kind: 'a library, --verifier etherscan', address: mathLib.address, target: 'src/MathLib.sol:MathLib', name: 'MathLib', verifier: 'etherscan' },
];

const verifierArgs = (c: Case): string[] =>
  c.verifier === 'etherscan'
    ? ['--verifier', 'etherscan', '--verifier-url', `${apiUrl}/api`, '--etherscan-api-key', 'x']
    : ['--verifier', 'blockscout', '--verifier-url', `${apiUrl}/api/`];

for (const c of CASES) {
  t.test(`forge verify-contract --verifier ${c.verifier ?? 'blockscout'}: ${c.kind}`, async (t) => {
    const run = await forge(['verify-contract', c.address, c.target, ...verifierArgs(c), '--rpc-url', anvil.url, '--watch', ...(c.args ?? [])]);
    const polls = run.out.split('Details: `').length - 1;
    t.comment(`forge verify-contract ${c.name}: ${run.ms} ms, ${polls} status answer(s)`);
    t.equal(run.code, 0, 'exit 0');
    t.match(run.out, /Submitted contract for verification:\s+Response: `OK`/, 'submitted: a GUID');
    t.match(run.out, /Details: `Pass - Verified`\s+Contract successfully verified/, "forge's success line");
    t.match(
      await contractAt(c.address),
      {
        is_verified: true,
        is_fully_verified: c.partial !== true,
        is_partially_verified: c.partial === true,
        name: c.name,
        compiler_version: `v${longVersion}`,
        external_libraries: c.libraries ?? [],
      },
      c.partial === true ? '/smart-contracts/{h}: verified (a partial match: the flattened file is not the file compiled for deployment), by its name' : '/smart-contracts/{h}: verified (a full match), by its name',
    );
  });
}

t.test("forge verify-contract --verifier sourcify, then forge verify-check: an EIP-1967 proxy's implementation", async (t) => {
  // forge 1.7.1 takes Etherscan over `--verifier sourcify` when foundry.toml holds a key for the chain (verify.rs): none while this runs
  await writeFile(join(project, 'foundry.toml'), FOUNDRY_TOML);
  t.teardown(() => writeFile(join(project, 'foundry.toml'), `${FOUNDRY_TOML}\n[etherscan]\nanvil = { key = "x", chain = 31337, url = "${apiUrl}/api" }\n`));
  const sourcify = ['--verifier', 'sourcify', '--verifier-url', `${apiUrl}/`];
  const target = ['src/Proxy.sol:Implementation'];
  const run = await forge(['verify-contract', implementation.address, ...target, ...sourcify, '--rpc-url', anvil.url]);
  t.comment(`forge verify-contract --verifier sourcify: ${run.ms} ms`);
  t.equal(run.code, 0, 'exit 0');
  const id = new RegExp(`${apiUrl}/v2/verify/([0-9a-f-]+)`).exec(run.out)?.[1];
  t.ok(id, `submitted: a verification id and its URL (${run.out.trim().split('\n').slice(-3).join(' | ')})`);
  const check = await forge(['verify-check', String(id), ...sourcify]);
  t.comment(`forge verify-check --verifier sourcify: ${check.ms} ms`);
  t.equal(check.code, 0, 'verify-check: exit 0');
  t.match(check.out, /Contract successfully verified/, "forge's success line");
  t.match(check.out, /exact_match/, 'an exact match');
  t.match(await contractAt(implementation.address), { is_verified: true, is_fully_verified: true, name: 'Implementation', compiler_version: `v${longVersion}` }, '/smart-contracts/{h}: verified, by its name');
  const again = await forge(['verify-contract', implementation.address, ...target, ...sourcify, '--rpc-url', anvil.url]);
  t.equal(again.code, 0, 'again: exit 0');
  t.match(again.out, /is already verified\. Skipping verification\./, 'again: skipped, already verified (GET /v2/contract: both matches exact)');
  const forced = await forge(['verify-contract', implementation.address, ...target, ...sourcify, '--rpc-url', anvil.url, '--skip-is-verified-check']);
  t.equal(forced.code, 0, '--skip-is-verified-check: exit 0');
  t.match(forced.out, /already fully verified/, '--skip-is-verified-check: 409, already fully verified');
});

t.test('the proxy shows its verified implementation', async (t) => {
  t.match(await contractAt(proxy.address), { proxy_type: 'eip1967', implementations: [{ address_hash: getAddress(implementation.address), name: 'Implementation' }] });
});

t.test('forge verify-contract on a verified contract: skipped, already verified (getabi)', async (t) => {
  const [first] = CASES;
  if (first === undefined) throw new Error('no case');
  const run = await forge(['verify-contract', first.address, first.target, ...verifierArgs(first), '--rpc-url', anvil.url, '--watch', ...(first.args ?? [])]);
  t.equal(run.code, 0, 'exit 0');
  t.match(run.out, /is already verified\. Skipping verification\./, "forge's already-verified line");
  t.notMatch(run.out, /Submitting verification/, 'nothing submitted');
});
