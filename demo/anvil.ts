/**
 * Start a local anvil node (npm's `@foundry-rs/anvil-<platform>-<arch>`, or foundryup's) for the
 * demo, tests and benchmarks. Listens on 127.0.0.1 at a free port, uses anvil's default mnemonic
 * (`test test ... junk`, 10 accounts with 10,000 ETH each), is silent unless it fails, and is
 * killed on `stop()` and when this process exits.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface AnvilOptions {
  /** Interval mining, seconds between blocks (fractions allowed). Default: automine. */
  readonly blockTime?: number;
  /** Port to listen on. Default: a free ephemeral port. */
  readonly port?: number;
  /** Default: 31337 (anvil's). */
  readonly chainId?: number;
  /** Extra command-line arguments for anvil. */
  readonly args?: readonly string[];
  /** How long to wait for the node to answer `eth_chainId`, ms. Default 30,000. */
  readonly startTimeoutMs?: number;
}

export interface Anvil {
  readonly url: string;
  readonly port: number;
  /** the node's process id (tests pause it with SIGSTOP) */
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEFAULT_CHAIN_ID = 31337;

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/** What to do when anvil is missing: said by `scoutkit demo`, the tests and the benchmarks. */
export const ANVIL_MISSING =
  "anvil (Foundry's local Ethereum node) is not installed. Install it in this project with " +
  '`npm i -D @foundry-rs/anvil`, or for your user with foundryup (https://getfoundry.sh: ' +
  '`curl -L https://foundry.paradigm.xyz | bash`, then `foundryup`), and run again.';

export class AnvilNotFoundError extends Error {
  override readonly name = 'AnvilNotFoundError';
  constructor() {
    super(ANVIL_MISSING);
  }
}

/** Where findAnvil looks (the defaults are this process's; tests pass their own). */
export interface AnvilLookup {
  /** resolve a module id from a base file, as `require.resolve` does; undefined when not installed */
  readonly resolve: (id: string, base: string) => string | undefined;
  readonly exists: (path: string) => boolean;
  /** files to resolve packages from: this module, then the current project */
  readonly bases: readonly string[];
  /** the PATH variable */
  readonly path: string;
  readonly home: string;
}

function defaultLookup(): AnvilLookup {
  return {
    resolve: (id, base) => {
      try {
        return createRequire(base).resolve(id);
      } catch {
        return undefined;
      }
    },
    exists: existsSync,
    bases: [fileURLToPath(import.meta.url), join(process.cwd(), 'package.json')],
    path: process.env.PATH ?? '',
    home: homedir(),
  };
}

/**
 * The anvil binary to spawn (spawning the native binary directly means stop() kills the node
 * itself, not a wrapper): npm's `@foundry-rs/anvil-<platform>-<arch>` (beside scoutkit, in the
 * current project, or inside `@foundry-rs/anvil`), else `anvil` on the PATH, else foundryup's
 * `~/.foundry/bin/anvil`. Throws AnvilNotFoundError, which says how to install it.
 */
export function findAnvil(lookup: AnvilLookup = defaultLookup()): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  const native = `@foundry-rs/anvil-${process.platform}-${arch}/bin/${exe}`;
  const fromNpm = lookup.bases.flatMap((base) => {
    const wrapper = lookup.resolve('@foundry-rs/anvil/package.json', base);
    return [lookup.resolve(native, base), wrapper === undefined ? undefined : lookup.resolve(native, wrapper)];
  });
  const onPath = lookup.path
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, exe));
  const found = [...fromNpm, ...onPath, join(lookup.home, '.foundry', 'bin', exe)].find(
    (file): file is string => file !== undefined && lookup.exists(file),
  );
  if (found === undefined) throw new AnvilNotFoundError();
  return found;
}

/** A free TCP port on 127.0.0.1 (bind port 0, read it, release it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('could not find a free port'))));
    });
  });
}

// Every running anvil, killed when this process exits.
const running = new Set<ChildProcess>();
let hooked = false;

function killAll(): void {
  for (const child of running) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  running.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      killAll();
      // If nobody else handles the signal, keep its default meaning (terminate).
      if (process.listenerCount(signal) === 1) {
        process.off(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The chain id a node at `url` answers `eth_chainId` with (as it says it, hex), null while it does not answer. */
export async function answeredChainId(url: string): Promise<string | null> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { result?: unknown };
    return typeof body.result === 'string' ? body.result : null;
  } catch {
    return null;
  }
}

export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const binary = findAnvil();
  const chainId = options.chainId ?? DEFAULT_CHAIN_ID;
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  // A port found free can be taken before anvil binds it; retry with another one.
  const attempts = options.port === undefined ? 3 : 1;
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = options.port ?? (await freePort());
    const args = [
      '--host', '127.0.0.1',
      '--port', String(port),
      '--chain-id', String(chainId),
      '--mnemonic', DEFAULT_MNEMONIC,
      '--quiet',
      ...(options.blockTime !== undefined ? ['--block-time', String(options.blockTime)] : []),
      ...(options.args ?? []),
    ];
    try {
      return await launch(binary, args, port, timeoutMs);
    } catch (e) {
      lastError = e instanceof Error ? e : new Error(String(e));
      if (!/address already in use|in use/i.test(lastError.message)) break;
    }
  }
  throw lastError ?? new Error('anvil failed to start');
}

async function launch(binary: string, args: readonly string[], port: number, timeoutMs: number): Promise<Anvil> {
  const child = spawn(binary, args, { cwd: packageRoot, stdio: ['ignore', 'ignore', 'pipe'] });
  hookExit();
  running.add(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    if (stderr.length < 64_000) stderr += chunk;
  });
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let spawnError: Error | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      running.delete(child);
      resolve();
    });
  });
  child.once('error', (e) => {
    spawnError = e;
    running.delete(child);
  });

  const url = `http://127.0.0.1:${port}`;
  const fail = (why: string): Error =>
    new Error(`anvil failed to start (${why}): ${binary} ${args.join(' ')}${stderr ? `\n${stderr.trim()}` : ''}`);

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (spawnError) throw fail(spawnError.message);
    if (exited) throw fail(`exited with ${exited.signal ?? `code ${exited.code}`}`);
    if ((await answeredChainId(url)) !== null) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exitPromise;
      throw fail(`no answer to eth_chainId within ${timeoutMs} ms`);
    }
    await sleep(50);
  }

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (exited || spawnError) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exitPromise;
      clearTimeout(timer);
    })();
    return stopping;
  };
  return { url, port, pid: child.pid, stop };
}
