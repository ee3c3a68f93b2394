/**
 * A real `hardhat node` for tests: Hardhat 2 (the root devDependency `hardhat`, run by the suite's
 * own node) or Hardhat 3 (the npm workspace test/clients/hardhat3, run under Node 22 from npm's
 * `node` package, test/support/nodes.ts, as it requires). Each runs from a throwaway project in a
 * temporary folder (a config file, and node_modules linked to the installation) with its
 * caches and config in that folder too. The node listens on 127.0.0.1 at a free port, chain id
 * 31337, hardfork Osaka (the EVM rules of anvil 1.7's default "Bpo1"), Hardhat's default
 * accounts (the mnemonic `test test ... junk`, anvil's: the same ten funded accounts), automine.
 * It is ready when it answers `eth_chainId`, and killed on `stop()` and when this process exits
 * (and ends by itself when this process dies of a signal: it watches its parent).
 *
 * Hardhat 3's EDR needs its native build of the same version (`@nomicfoundation/edr-linux-x64-gnu`
 * 0.22 for hardhat 3.18), an optional dependency that asks for Node 22: `npm ci` run by Node 20
 * leaves it out, and EDR's loader then finds the root's build for Hardhat 2 (0.12), which refuses
 * every hardfork name. When that is so, the build of the right version is fetched once with
 * `npm pack` (checked against the integrity package-lock.json records), unpacked under the
 * system's temporary folder, and handed to EDR's loader by a preload in the Hardhat 3 process.
 *
 * Under CI=true a node that fails to start throws; off CI, one loud line is printed and the
 * result is null, so the caller skips.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answeredChainId, DEFAULT_CHAIN_ID, DEFAULT_MNEMONIC, freePort } from '../../demo/anvil.ts';
import { nodeBinary } from './nodes.ts';
import { cleanEnv } from './package.ts';

export interface HardhatNode {
  readonly url: string;
  /** 2 or 3 */
  readonly version: HardhatVersion;
  /** the hardfork it runs */
  readonly hardfork: string;
  /** ms from spawning to the first answer to eth_chainId */
  readonly startMs: number;
  stop(): Promise<void>;
}

export type HardhatVersion = 2 | 3;

/** the EVM rules anvil 1.7 runs by default ("Bpo1": Osaka's EVM with other blob parameters) */
export const HARDHAT_HARDFORK = 'osaka';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const workspace = join(repo, 'test', 'clients', 'hardhat3');
const START_TIMEOUT_MS = 60_000;

interface Install {
  /** the node executable */
  readonly node: string;
  /** hardhat's CLI entry point */
  readonly cli: string;
  /** the node_modules the project links to */
  readonly modules: string;
  readonly configFile: string;
  readonly config: string;
  readonly packageJson: Record<string, unknown>;
  /** node's own options before the CLI (the preload that hands EDR its native build) */
  readonly nodeArgs: readonly string[];
}

const CONFIG_2 = `module.exports = {
  networks: {
    hardhat: {
      chainId: ${DEFAULT_CHAIN_ID},
      hardfork: "${HARDHAT_HARDFORK}",
      mining: { auto: true, interval: 0 },
      accounts: { mnemonic: "${DEFAULT_MNEMONIC}", count: 10 },
    },
  },
};
`;

const CONFIG_3 = `export default {
  networks: {
    node: {
      type: "edr-simulated",
      chainId: ${DEFAULT_CHAIN_ID},
      hardfork: "${HARDHAT_HARDFORK}",
      mining: { auto: true, interval: 0 },
      accounts: { mnemonic: "${DEFAULT_MNEMONIC}", count: 10 },
    },
  },
};
`;

async function install(version: HardhatVersion): Promise<Install> {
  if (version === 2) {
    return {
      node: process.execPath,
      cli: join(repo, 'node_modules', 'hardhat', 'internal', 'cli', 'bootstrap.js'),
      modules: join(repo, 'node_modules'),
      configFile: 'hardhat.config.cjs',
      config: CONFIG_2,
      packageJson: { name: 'scoutkit-hardhat2-node', private: true },
      nodeArgs: [],
    };
  }
  const node22 = await nodeBinary('22');
  if (node22 === null) throw new Error('Hardhat 3 needs Node 22, which npx -y node@22 could not provide');
  return {
    node: node22.path,
    // resolved from its workspace (nested there: the root has hardhat 2)
    cli: join(dirname(createRequire(join(workspace, 'package.json')).resolve('hardhat')), 'cli.js'),
    modules: join(workspace, 'node_modules'),
    configFile: 'hardhat.config.js',
    config: CONFIG_3,
    packageJson: { name: 'scoutkit-hardhat3-node', private: true, type: 'module' },
    nodeArgs: await edrPreload(),
  };
}

// ---- EDR's native build for Hardhat 3 ----

const run = (file: string, args: readonly string[], cwd: string): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(file, [...args], { cwd, env: cleanEnv(), maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${file} ${args.join(' ')}: ${error.message}\n${stderr}`)) : resolve(stdout));
  });

/** the name of EDR's native package for this machine (napi-rs's naming) */
function bindingName(): string {
  const libc = process.platform === 'linux' ? '-gnu' : process.platform === 'win32' ? '-msvc' : '';
  return `@nomicfoundation/edr-${process.platform}-${process.arch}${libc}`;
}

/** Unpack `name@version` from the registry (npm's cache first) into `dir`, once per machine; its package folder. */
async function fetchBinding(name: string, version: string, integrity: string | undefined, dir: string): Promise<string> {
  const target = join(dir, `${name.replace('/', '+')}-${version}`);
  if (existsSync(join(target, 'package.json'))) return target;
  await mkdir(dir, { recursive: true });
  const work = await mkdtemp(join(dir, 'fetch-'));
  try {
    const packed = JSON.parse(await run('npm', ['pack', `${name}@${version}`, '--json'], work)) as readonly { filename: string; integrity: string }[];
    const tarball = packed[0];
    if (tarball === undefined) throw new Error(`npm pack ${name}@${version} packed nothing`);
    if (integrity !== undefined && tarball.integrity !== integrity) throw new Error(`${name}@${version}: integrity ${tarball.integrity}, package-lock.json says ${integrity}`);
    await run('tar', ['xzf', tarball.filename], work);
    // another process may have unpacked it meanwhile: rename is atomic, the loser's copy goes
    await rename(join(work, 'package'), target).catch((e: unknown) => {
      if (!existsSync(join(target, 'package.json'))) throw e;
    });
    return target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** node options that make the workspace's EDR load its own native build; none when it does already. */
async function edrPreload(): Promise<string[]> {
  const requireEdr = createRequire(createRequire(join(workspace, 'package.json')).resolve('hardhat/package.json'));
  // its package.json is not exported: the folder of its entry point (at the package's root) holds it
  const edrJson = join(dirname(requireEdr.resolve('@nomicfoundation/edr')), 'package.json');
  const edr = JSON.parse(await readFile(edrJson, 'utf8')) as { version: string; optionalDependencies?: Record<string, string> };
  const name = bindingName();
  const version = edr.optionalDependencies?.[name];
  if (version === undefined) throw new Error(`@nomicfoundation/edr ${edr.version} has no native build ${name}`);
  const found = (() => {
    try {
      const json = createRequire(edrJson).resolve(`${name}/package.json`);
      return (JSON.parse(readFileSync(json, 'utf8')) as { version?: string }).version;
    } catch {
      return undefined;
    }
  })();
  if (found === version) return [];
  const lock = JSON.parse(await readFile(join(repo, 'package-lock.json'), 'utf8')) as { packages?: Record<string, { integrity?: string }> };
  const integrity = lock.packages?.[`test/clients/hardhat3/node_modules/${name}`]?.integrity;
  const folder = await fetchBinding(name, version, integrity, join(tmpdir(), 'scoutkit-edr'));
  const main = (JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { main?: string }).main;
  if (main === undefined) throw new Error(`${name}@${version} names no main file`);
  const preload = join(folder, 'scoutkit-preload.cjs');
  const code = `// written by scoutkit's test/support/hardhatNode.ts: EDR ${edr.version}'s loader gets its own native build
const Module = require("node:module");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === ${JSON.stringify(name)} ? ${JSON.stringify(join(folder, main))} : resolve.call(this, request, ...rest);
};
`;
  if (!existsSync(preload)) {
    await writeFile(`${preload}.${process.pid}`, code);
    await rename(`${preload}.${process.pid}`, preload);
  }
  return ['--require', preload];
}

// Every running node, killed (and its folder removed) when this process exits.
const running = new Map<ChildProcess, string>();
let hooked = false;

function cleanUp(child: ChildProcess, root: string): void {
  try {
    child.kill('SIGKILL');
  } catch {
    // already gone
  }
  rmSync(root, { recursive: true, force: true });
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const [child, root] of running) cleanUp(child, root);
    running.clear();
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));


/**
 * Loaded first in the node's process: it ends when the process that started it is gone (the
 * node is handed to another parent), so that a test process killed by a signal, which runs no
 * exit hook, leaves no node behind. (Not by watching stdin: under tap, whose hooks are loaded
 * into every child node process, touching stdin that early hangs the process.)
 */
const WATCHDOG = 'watchdog.cjs';
const WATCHDOG_CODE = `// written by scoutkit's test/support/hardhatNode.ts: this node ends with the process that started it
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 500).unref();
`;

async function project(how: Install): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'scoutkit-hardhat-node-'));
  const dir = join(root, 'project');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, how.configFile), how.config);
  await writeFile(join(dir, 'package.json'), JSON.stringify(how.packageJson));
  // hardhat runs only from a project where it is installed
  await symlink(how.modules, join(dir, 'node_modules'), 'dir');
  await writeFile(join(root, WATCHDOG), WATCHDOG_CODE);
  return root;
}

async function launch(version: HardhatVersion, how: Install, root: string, port: number): Promise<HardhatNode> {
  const started = performance.now();
  const env = {
    PATH: process.env['PATH'] ?? '',
    HOME: root,
    XDG_CACHE_HOME: join(root, 'cache'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
    CI: 'true',
    NO_COLOR: '1',
  };
  const args = ['--require', join(root, WATCHDOG), ...how.nodeArgs, how.cli, 'node', '--hostname', '127.0.0.1', '--port', String(port)];
  const child = spawn(how.node, args, { cwd: join(root, 'project'), env, stdio: ['ignore', 'pipe', 'pipe'] });
  hookExit();
  running.set(child, root);
  // hardhat logs every request: keep the first 64 kB (what a failure to start says), drop the rest
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      if (output.length < 64_000) output += chunk;
    });
  }
  let exited: string | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = signal ?? `code ${code}`;
      resolve();
    });
    child.once('error', (e) => {
      exited = e.message;
      resolve();
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if ((await answeredChainId(url)) === `0x${DEFAULT_CHAIN_ID.toString(16)}`) break;
    if (exited !== undefined || Date.now() > deadline) {
      const why = exited !== undefined ? `exited with ${exited}` : `no answer to eth_chainId within ${START_TIMEOUT_MS} ms`;
      cleanUp(child, root);
      running.delete(child);
      throw new Error(`hardhat ${version} node failed to start (${why}): ${how.node} ${args.join(' ')}\n${output.trim()}`);
    }
    await sleep(100);
  }
  const startMs = Math.round(performance.now() - started);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (exited === undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exit;
        clearTimeout(timer);
      }
      running.delete(child);
      rmSync(root, { recursive: true, force: true });
    })();
    return stopping;
  };
  return { url, version, hardfork: HARDHAT_HARDFORK, startMs, stop };
}

async function start(version: HardhatVersion): Promise<HardhatNode> {
  const how = await install(version);
  let lastError: Error | undefined;
  // a port found free can be taken before hardhat binds it: try another one
  for (let attempt = 0; attempt < 3; attempt++) {
    const root = await project(how);
    try {
      return await launch(version, how, root, await freePort());
    } catch (e) {
      lastError = e instanceof Error ? e : new Error(String(e));
      if (!/EADDRINUSE|address already in use/i.test(lastError.message)) break;
    }
  }
  throw lastError ?? new Error(`hardhat ${version} node failed to start`);
}

/** A running `hardhat node` of that major version, or null off CI when it cannot start (said in one loud line). */
export async function startHardhatNode(version: HardhatVersion): Promise<HardhatNode | null> {
  try {
    return await start(version);
  } catch (error) {
    if (process.env['CI'] === 'true') throw error;
    console.error(`!!!!! HARDHAT ${version} NODE UNAVAILABLE — SKIPPING ITS CHECKS !!!!! ${String(error).split('\n')[0] ?? ''}`);
    return null;
  }
}
