/**
 * hardhat-verify 3 (hardhat 3), unchanged, as a child process against the server. Hardhat 3 lives
 * beside the root's hardhat 2 in the npm workspace test/clients/hardhat3 (installed by the root
 * `npm ci`) and runs under Node 22 from npm's `node` package (test/support/nodes.ts), as it
 * requires. A Hardhat 3 project made by code (ESM, `hardhat.config.ts`) builds the fixture's
 * contracts offline with its production profile: hardhat 3's compilers cache
 * (`<XDG_CACHE_HOME>/hardhat-nodejs/compilers-v3`, in a temporary folder) is filled from npm's
 * `solc` (the wasm list.json entry with its sha256 and the soljson build, and the native entry
 * marked with hardhat's own "does not work" file so hardhat takes solc-js). anvil runs with chain
 * id 9090: hardhat-verify 3 refuses 31337 and 1337 as dev networks. The contracts are deployed,
 * indexed into SQLite and served; then `hardhat verify etherscan` on the ERC-20 with constructor
 * arguments (a chain descriptor whose etherscan explorer is our `/api`, with a key the server does
 * not know) and `hardhat verify sourcify` on a contract with immutables and a constructor
 * argument (`verify.sourcify.apiUrl` the server's root: Sourcify's API v2, GET /v2/contract's 404
 * with null matches, POST /v2/verify's 202, its job polled) and `hardhat verify blockscout` on
 * another deployment of it (the descriptor's blockscout explorer, no key) each end in hardhat-verify's
 * success line, `/api/v2/smart-contracts/{h}` reads the contract verified under hardhat 3's
 * source name (`project/contracts/…`), and a second run answers "has already been verified"
 * (getsourcecode, GET /v2/contract read back). A wrong constructor argument sent by `hardhat verify
 * blockscout` (the descriptor's blockscout explorer, no key) ends in the server's "Fail - Unable to
 * verify" twice (hardhat-verify retries with its full compiler input) and exit 1.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { decodeAbiParameters, encodeAbiParameters } from 'viem';
import type { Hex } from 'viem';
import { startAnvil } from '../../demo/anvil.ts';
import { hex } from '../../lib/index.ts';
import { indexAndServe } from '../support/verifyingServer.ts';
import { deploy, IMMUTABLES, TOKEN, tokenArgs } from '../adapters/solc/fixture.ts';
import { nodeBinary } from '../support/nodes.ts';
import { request } from './helpers.ts';

/** not 31337 or 1337: hardhat-verify 3 rejects those as local dev networks */
const CHAIN_ID = 9090;

const require = createRequire(import.meta.url);
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const workspace = join(repo, 'test', 'clients', 'hardhat3');
// hardhat 3's entry point resolved from its workspace (nested there: the root has hardhat 2)
const hardhatBin = join(dirname(createRequire(join(workspace, 'package.json')).resolve('hardhat')), 'cli.js');
const solcVersion = (require('solc/package.json') as { version: string }).version;
const longVersion = (require('solc') as { version: () => string }).version().replace(/\.Emscripten.*$/, '');
const commit = longVersion.slice(longVersion.indexOf('+') + 1);

const node22 = await nodeBinary('22');
if (node22 === null) throw new Error('hardhat 3 needs Node 22: npx -y node@22 could not provide it (see the line above)');
const node22Path = node22.path;

const root = await mkdtemp(join(tmpdir(), 'scoutkit-hardhat3-'));
const project = join(root, 'project');
const cache = join(root, 'cache');
const db = `sqlite:${join(root, 'chain.sqlite')}`;
t.teardown(() => rm(root, { recursive: true, force: true }));

/** Hardhat 3's compilers cache (hardhat/…/solidity/build-system/compiler/{index,downloader}.ts), filled from npm's solc. */
async function fillCompilersCache(): Promise<void> {
  const compilers = join(cache, 'hardhat-nodejs', 'compilers-v3');
  const soljson = require.resolve('solc/soljson.js');
  const wasmPath = `soljson-v${longVersion}.js`;
  const nativePath = `solc-linux-amd64-v${longVersion}`;
  const entry = (path: string, sha256: string) => ({ path, version: solcVersion, build: commit, longVersion, sha256, urls: [] });
  await mkdir(join(compilers, 'wasm'), { recursive: true });
  await mkdir(join(compilers, 'linux-amd64'), { recursive: true });
  await copyFile(soljson, join(compilers, 'wasm', wasmPath));
  const wasmHash = `0x${createHash('sha256').update(await readFile(soljson)).digest('hex')}`;
  await writeFile(join(compilers, 'wasm', 'list.json'), JSON.stringify({ builds: [entry(wasmPath, wasmHash)], releases: { [solcVersion]: wasmPath }, latestRelease: solcVersion }));
  // the native entry hardhat looks up first on Linux, with hardhat's own "does not work" marker:
  // it then takes the wasm build (there is no native solc on this machine)
  await writeFile(join(compilers, 'linux-amd64', 'list.json'), JSON.stringify({ builds: [entry(nativePath, '0x')], releases: { [solcVersion]: nativePath }, latestRelease: solcVersion }));
  await writeFile(join(compilers, 'linux-amd64', nativePath), '');
  await writeFile(join(compilers, 'linux-amd64', `${nativePath}.does.not.work`), '');
}

const CONFIG = `import { defineConfig } from "hardhat/config";
import hardhatVerify from "@nomicfoundation/hardhat-verify";

const api = process.env.SCOUTKIT_URL ?? "http://127.0.0.1:1";
export default defineConfig({
  plugins: [hardhatVerify],
  solidity: { version: "${solcVersion}", settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" } },
  networks: { anvil: { type: "http", url: process.env.ANVIL_URL ?? "http://127.0.0.1:1", chainId: ${CHAIN_ID} } },
  chainDescriptors: {
    ${CHAIN_ID}: {
      name: "anvil",
      blockExplorers: {
        etherscan: { name: "scoutkit (etherscan)", url: api, apiUrl: api + "/api" },
        blockscout: { name: "scoutkit (blockscout)", url: api, apiUrl: api + "/api" },
      },
    },
  },
  verify: {
    etherscan: { apiKey: "a-key-the-server-does-not-know" },
    blockscout: { enabled: true },
    // Sourcify's API v2 at the server's root
    sourcify: { enabled: true, apiUrl: api },
  },
});
`;

interface Run {
  readonly code: number;
  readonly out: string;
}

function hardhat(args: readonly string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      node22Path,
      [hardhatBin, ...args],
      { cwd: project, env: { PATH: process.env['PATH'] ?? '', HOME: root, XDG_CACHE_HOME: cache, XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_HOME: join(root, 'data'), HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', CI: 'true', NO_COLOR: '1', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, out: `${stdout}${stderr}` }),
    );
  });
}

await mkdir(join(project, 'contracts'), { recursive: true });
await writeFile(join(project, 'contracts', 'Token.sol'), TOKEN);
await writeFile(join(project, 'contracts', 'Immutables.sol'), IMMUTABLES);
await writeFile(join(project, 'hardhat.config.ts'), CONFIG);
// hardhat 3 projects are ESM
await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'hh3-project', private: true, type: 'module' }));
// hardhat runs only from a project where it is installed: the workspace's, linked
await symlink(join(workspace, 'node_modules'), join(project, 'node_modules'), 'dir');
await fillCompilersCache();

// hardhat-verify 3 verifies against the production build profile: build with it
const buildStarted = Date.now();
const built = await hardhat(['build', '--build-profile', 'production'], {});
const buildMs = Date.now() - buildStarted;
if (built.code !== 0) throw new Error(`hardhat build failed:\n${built.out}`);
const artifact = async (name: string): Promise<string> =>
  (JSON.parse(await readFile(join(project, 'artifacts', 'contracts', `${name}.sol`, `${name}.json`), 'utf8')) as { bytecode: Hex }).bytecode.slice(2);

const anvil = await startAnvil({ chainId: CHAIN_ID });
t.teardown(() => anvil.stop());
const args = tokenArgs();
const cliArgs = (decodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], args) as readonly [string, string, bigint]).map(String);
// a contract per run: a second Token would be the first's bytecode twin, verified already
const token = await deploy(anvil.url, await artifact('Token'), args);
const immutables = await deploy(anvil.url, await artifact('Immutables'), hex(encodeAbiParameters([{ type: 'uint256' }], [1234n])));
// another value of the immutable: other runtime code, not a twin of the first
const immutablesForBlockscout = await deploy(anvil.url, await artifact('Immutables'), hex(encodeAbiParameters([{ type: 'uint256' }], [5678n])));
// two workers: the wrong-argument run compiles beside the etherscan run
const apiUrl = await indexAndServe(t, { rpc: anvil.url, db, chainId: CHAIN_ID, workers: 2 });

// before the contract is verified: a wrong argument compiles, but the creation input does not end in
// its encoding. The server answers "Fail - Unable to verify: …"; hardhat-verify 3 retries with its full
// compiler input, fails again and says why. It runs beside the etherscan provider's run (another
// address) to keep this file's time down; its subtest waits for it.
const wrongArgument = hardhat(['verify', 'blockscout', '--network', 'anvil', immutables.address, '999'], { ANVIL_URL: anvil.url, SCOUTKIT_URL: apiUrl });

async function verifiedAt(address: string): Promise<Record<string, unknown>> {
  return (await request(`${apiUrl}/api/v2/smart-contracts/${address}`)).json as Record<string, unknown>;
}

t.test('hardhat 3 build (production profile), offline, with the cache filled from npm', async (t) => {
  t.equal(built.code, 0, 'exit 0');
  t.match(built.out, new RegExp(`Compiled 2 Solidity files with solc ${solcVersion.replace(/\./g, '\\.')}`), "hardhat's success line");
  t.comment(`hardhat 3 build under Node ${node22.version} (solc-js from the cache): ${buildMs} ms`);
});

function verifies(provider: 'etherscan' | 'blockscout' | 'sourcify', name: 'Token' | 'Immutables', deployed: { readonly address: string }, constructorArgs: readonly string[]): void {
  t.test(`hardhat verify ${provider}: ${name}`, async (t) => {
    const env = { ANVIL_URL: anvil.url, SCOUTKIT_URL: apiUrl };
    const startedAt = Date.now();
    const run = await hardhat(['verify', provider, '--network', 'anvil', deployed.address, ...constructorArgs], env);
    t.comment(`hardhat verify ${provider}: ${Date.now() - startedAt} ms`);
    t.equal(run.code, 0, 'exit 0', run.code === 0 ? {} : { output: run.out });
    // hardhat-verify names Sourcify itself; the others by the chain descriptor's explorer name
    const where = provider === 'sourcify' ? 'Sourcify' : 'scoutkit';
    t.match(run.out, new RegExp(`Contract verified successfully on ${where}`), "hardhat-verify's success line");
    t.match(run.out, new RegExp(`contracts/${name}\\.sol:${name}`), 'naming the contract');
    t.match(
      await verifiedAt(deployed.address),
      { is_verified: true, is_fully_verified: true, name, file_path: `project/contracts/${name}.sol`, source_code: { Token: TOKEN, Immutables: IMMUTABLES }[name], compiler_version: `v${longVersion}` },
      'read back verified',
    );
    const decoded = (await verifiedAt(deployed.address))['decoded_constructor_args'] as readonly (readonly [unknown, unknown])[] | null;
    t.same(decoded?.map(([value]) => value), constructorArgs, 'decoded_constructor_args: the values given on the command line');
    const again = await hardhat(['verify', provider, '--network', 'anvil', deployed.address, ...constructorArgs], env);
    t.equal(again.code, 0, 'a second run: exit 0');
    t.match(again.out, new RegExp(`has already been verified on ${where}`), 'a second run: already verified (getsourcecode, GET /v2/contract read back)');
  });
}

verifies('etherscan', 'Token', token, cliArgs);

t.test('hardhat verify blockscout with a wrong constructor argument: the failure, exit 1', async (t) => {
  const run = await wrongArgument;
  t.not(run.code, 0, 'exit non-zero');
  t.match(run.out, /Trying again with the full solc input/, 'the first answer was a retryable failure');
  t.match(run.out, /Fail - Unable to verify/, "the server's failure text, shown by hardhat-verify");
  t.notMatch(run.out, /verified successfully/, 'no success line');
  t.match(await verifiedAt(immutables.address), { is_verified: false }, 'still unverified');
});

verifies('sourcify', 'Immutables', immutables, ['1234']);
verifies('blockscout', 'Immutables', immutablesForBlockscout, ['5678']);
