/**
 * hardhat-verify 2 (hardhat 2), unchanged, as a child process against the server: a Hardhat
 * project made by code compiles the fixture's ERC-20 offline (hardhat's compilers cache in a
 * temporary XDG_CACHE_HOME, filled from npm's `solc`: the wasm list.json entry and the soljson
 * build, and the native entry marked as not working here so hardhat takes solc-js, as it does
 * on a machine where the native build does not run), the token is deployed to anvil with
 * constructor arguments and indexed into SQLite, then `npx hardhat verify --network anvil
 * <address> <args>` runs with its Etherscan provider (`etherscan.customChains` pointed at our
 * `/api`, a key per network: with a single key hardhat-verify 2.1 sends
 * every chain to api.etherscan.io/v2 whatever customChains says), a counter and a contract with
 * immutables and a constructor argument with its Blockscout provider (which always sends the key
 * `api_key`), and another deployment of the contract with immutables and a
 * constructor argument with its Sourcify provider (`sourcify.apiUrl` the server's root: the
 * legacy `GET /check-all-by-addresses` and `POST /`). Each run ends in hardhat-verify's success line and the
 * contract reads verified from `/api/v2/smart-contracts/{h}`; a second run on a verified
 * address answers "has already been verified".
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { decodeAbiParameters, encodeAbiParameters, keccak256 } from 'viem';
import type { Hex } from 'viem';
import { startAnvil } from '../../demo/anvil.ts';
import { hex } from '../../lib/index.ts';
import { indexAndServe } from '../support/verifyingServer.ts';
import { deploy, IMMUTABLES, TOKEN, tokenArgs } from '../adapters/solc/fixture.ts';
import { COUNTER } from '../support/verification.ts';
import { request } from './helpers.ts';

const require = createRequire(import.meta.url);
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hardhatBin = join(repo, 'node_modules', 'hardhat', 'internal', 'cli', 'bootstrap.js');
const solcVersion = (require('solc/package.json') as { version: string }).version;
const longVersion = (require('solc') as { version: () => string }).version().replace(/\.Emscripten.*$/, '');
const commit = longVersion.slice(longVersion.indexOf('+') + 1);

const root = await mkdtemp(join(tmpdir(), 'scoutkit-hardhat-'));
const project = join(root, 'project');
const cache = join(root, 'cache');
const db = `sqlite:${join(root, 'chain.sqlite')}`;
let apiUrl = 'http://127.0.0.1:1';

/** Hardhat's compilers cache (hardhat/internal/solidity/compiler/downloader.js), filled from npm's solc. */
async function fillCompilersCache(): Promise<void> {
  const compilers = join(cache, 'hardhat-nodejs', 'compilers-v2');
  const soljson = require.resolve('solc/soljson.js');
  const wasmPath = `soljson-v${longVersion}.js`;
  const nativePath = `solc-linux-amd64-v${longVersion}`;
  const entry = (path: string, hash: Hex) => ({ path, version: solcVersion, build: commit, longVersion, keccak256: hash, urls: [] });
  await mkdir(join(compilers, 'wasm'), { recursive: true });
  await mkdir(join(compilers, 'linux-amd64'), { recursive: true });
  await copyFile(soljson, join(compilers, 'wasm', wasmPath));
  const wasmHash = keccak256(await readFile(soljson));
  await writeFile(join(compilers, 'wasm', 'list.json'), JSON.stringify({ builds: [entry(wasmPath, wasmHash)], releases: { [solcVersion]: wasmPath }, latestRelease: solcVersion }));
  // the native entry hardhat looks up first on Linux, with hardhat's own "does not work" marker:
  // it then takes the wasm build (there is no native solc on this machine)
  await writeFile(join(compilers, 'linux-amd64', 'list.json'), JSON.stringify({ builds: [entry(nativePath, '0x')], releases: { [solcVersion]: nativePath }, latestRelease: solcVersion }));
  await writeFile(join(compilers, 'linux-amd64', nativePath), '');
  await writeFile(join(compilers, 'linux-amd64', `${nativePath}.does.not.work`), '');
}

const CONFIG = `require("@nomicfoundation/hardhat-verify");
const api = process.env.SCOUTKIT_URL;
const chains = [{ network: "anvil", chainId: 31337, urls: { apiURL: api + "/api", browserURL: api } }];
module.exports = {
  solidity: { version: "${solcVersion}", settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" } },
  networks: { anvil: { url: process.env.ANVIL_URL, chainId: 31337 } },
  // a key per network (hardhat-verify's "v1" form): with a single key it sends every chain to api.etherscan.io/v2
  etherscan: { apiKey: { anvil: "a-key-the-server-does-not-know" }, customChains: chains, enabled: process.env.PROVIDER === "etherscan" },
  blockscout: { enabled: process.env.PROVIDER === "blockscout", customChains: chains },
  // Sourcify's legacy API at the server's root (GET /check-all-by-addresses, POST /)
  sourcify: { enabled: process.env.PROVIDER === "sourcify", apiUrl: api, browserUrl: api },
};
`;

interface Run {
  readonly code: number;
  readonly out: string;
}

function hardhat(args: readonly string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [hardhatBin, ...args],
      { cwd: project, env: { PATH: process.env['PATH'] ?? '', HOME: root, XDG_CACHE_HOME: cache, XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_HOME: join(root, 'data'), HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', CI: 'true', NO_COLOR: '1', ...env }, timeout: 40_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, out: `${stdout}${stderr}` }),
    );
  });
}

await mkdir(join(project, 'contracts'), { recursive: true });
await writeFile(join(project, 'contracts', 'Token.sol'), TOKEN);
await writeFile(join(project, 'contracts', 'Counter.sol'), COUNTER);
await writeFile(join(project, 'contracts', 'Immutables.sol'), IMMUTABLES);
await writeFile(join(project, 'hardhat.config.cjs'), CONFIG);
await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'hh2-project', private: true }));
// hardhat runs only from a project where it is installed: the repository's, linked
await symlink(join(repo, 'node_modules'), join(project, 'node_modules'), 'dir');
await fillCompilersCache();

t.teardown(() => rm(root, { recursive: true, force: true }));

const compileStarted = Date.now();
const compiled = await hardhat(['compile'], { ANVIL_URL: 'http://127.0.0.1:1', SCOUTKIT_URL: apiUrl });
const compileMs = Date.now() - compileStarted;
if (compiled.code !== 0) throw new Error(`hardhat compile failed:\n${compiled.out}`);
const artifact = async (name: string): Promise<string> =>
  (JSON.parse(await readFile(join(project, 'artifacts', 'contracts', `${name}.sol`, `${name}.json`), 'utf8')) as { bytecode: Hex }).bytecode.slice(2);

// anvil started now, just before use (undici reuses its keep-alive socket, which anvil closes when idle)
const anvil = await startAnvil();
t.teardown(() => anvil.stop());
const args = tokenArgs();
const cliArgs = (decodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], args) as readonly [string, string, bigint]).map(String);
// a contract per run: a second Token would be the first's bytecode twin, verified already
const token = await deploy(anvil.url, await artifact('Token'), args);
const counter = await deploy(anvil.url, await artifact('Counter'));
const immutables = await deploy(anvil.url, await artifact('Immutables'), hex(encodeAbiParameters([{ type: 'uint256' }], [1234n])));
// another value of the immutable: other runtime code, not a twin of the first
const immutablesForBlockscout = await deploy(anvil.url, await artifact('Immutables'), hex(encodeAbiParameters([{ type: 'uint256' }], [5678n])));
apiUrl = await indexAndServe(t, { rpc: anvil.url, db, chainId: 31337 });

async function verifiedAt(address: string): Promise<Record<string, unknown>> {
  return (await request(`${apiUrl}/api/v2/smart-contracts/${address}`)).json as Record<string, unknown>;
}

t.test('hardhat compile, offline, with the cache filled from npm', async (t) => {
  t.equal(compiled.code, 0, 'exit 0');
  t.match(compiled.out, /Compiled 3 Solidity files successfully/, "hardhat's success line");
  t.comment(`hardhat compile (solc-js from the cache): ${compileMs} ms`);
});

for (const [provider, name, deployed, constructorArgs] of [
  ['etherscan', 'Token', token, cliArgs],
  ['blockscout', 'Counter', counter, []],
  ['sourcify', 'Immutables', immutables, ['1234']],
  ['blockscout', 'Immutables', immutablesForBlockscout, ['5678']],
] as const) {
  t.test(`hardhat verify, ${provider} provider: ${name}`, async (t) => {
    const env = { ANVIL_URL: anvil.url, SCOUTKIT_URL: apiUrl, PROVIDER: provider };
    const startedAt = Date.now();
    const run = await hardhat(['verify', '--network', 'anvil', deployed.address, ...constructorArgs], env);
    t.comment(`hardhat verify (${provider}): ${Date.now() - startedAt} ms`);
    t.equal(run.code, 0, 'exit 0');
    const where = provider === 'sourcify' ? 'Sourcify' : 'the block explorer';
    t.match(run.out, new RegExp(`Successfully verified contract ${name} on ${where}`), "hardhat-verify's success line");
    t.match(await verifiedAt(deployed.address), { is_verified: true, is_fully_verified: true, name, file_path: `contracts/${name}.sol`, source_code: { Token: TOKEN, Counter: COUNTER, Immutables: IMMUTABLES }[name], compiler_version: `v${longVersion}` }, 'read back verified');
    const again = await hardhat(['verify', '--network', 'anvil', deployed.address, ...constructorArgs], env);
    t.equal(again.code, 0, 'a second run: exit 0');
    t.match(again.out, new RegExp(`has already been verified on ${where}`), 'a second run: already verified (getsourcecode, check-all-by-addresses read back)');
  });
}
