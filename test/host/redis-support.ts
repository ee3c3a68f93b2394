/**
 * Support for the Redis limiter tests: is Redis there (loud skip off CI), a dedicated
 * redis-server that a test may stop and restart, a CPU burner, hosts sharing one Redis, and a
 * store observer that records each admitted rate window on the server side.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Test } from 'tap';
import { connectRedisLimiterStore, createServer } from '../../host/index.ts';
import type { KeyGrant, LimiterStore, ServerOptions } from '../../host/index.ts';
import { fixtureChains, limitHeaders, request } from './helpers.ts';
import type { Reply } from './helpers.ts';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A PING answered at `url` (no retry). */
export async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Whether the part of a test that needs `what` can run: under CI=true a missing service fails
 * the test; elsewhere it is announced in one loud line and that part skips.
 */
export function serviceMissing(t: Test, what: string): void {
  if (process.env.CI === 'true') {
    t.fail(`${what} is required under CI and is not available`);
  } else {
    console.error(`\n!!!!! ${what.toUpperCase()} NOT AVAILABLE: SKIPPING THIS TEST FILE (it runs under CI=true) !!!!!\n`);
    t.pass(`skipped: ${what} not available`);
  }
}

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface DedicatedRedis {
  readonly url: string;
  /** `SHUTDOWN SAVE`: the process exits, its data kept on disk for the restart */
  stop(): Promise<void>;
  /** start it again on the same port and directory; resolves once it answers */
  start(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that keeps its connections but does not answer */
  freeze(frozen: boolean): void;
  close(): Promise<void>;
}

/** A redis-server of our own on a free port (`--save '' --appendonly no`), in a temporary directory. */
export async function dedicatedRedis(): Promise<DedicatedRedis> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'scoutkit-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 200; i++) {
      if (await redisAnswers(url)) return;
      await sleep(25);
    }
    throw new Error(`redis-server on port ${port} did not answer`);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    const admin = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    admin.on('error', () => {});
    await admin.call('SHUTDOWN', 'SAVE').catch(() => undefined); // the connection drops as it exits
    admin.disconnect();
    await exited;
  };
  await start();
  return {
    url,
    start,
    stop,
    freeze(frozen) {
      child?.kill(frozen ? 'SIGSTOP' : 'SIGCONT');
    },
    async close() {
      if (child && child.exitCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A child process spinning one core until stopped: the machine is busy, the limiter's slow path runs. */
export function cpuBurner(): { stop(): void } {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return { stop: () => void child.kill('SIGKILL') };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One admitted rate window slot, seen by the server: where the window ends (server clock). */
export interface AdmittedSlot {
  readonly host: number;
  readonly key: string;
  /** estimate of the window's end: the call's start plus the store's reset (ms) */
  readonly windowEnd: number;
  readonly remaining: number;
  /** when the call started */
  readonly at: number;
  /** answered by the insurance (Redis down) */
  readonly insurance: boolean;
}

/** The store, with each admitted rate consume recorded (a test observer; answers unchanged). */
export function observed(store: LimiterStore, host: number, slots: AdmittedSlot[]): LimiterStore {
  return {
    ...store,
    consume: async (req) => {
      const before = Date.now();
      const result = await store.consume(req);
      if (result.admitted && 'seconds' in req.window) {
        const after = Date.now();
        slots.push({
          host,
          key: req.key,
          windowEnd: (before + after) / 2 + result.resetMs,
          remaining: result.remaining,
          at: before,
          insurance: result.insurance === true,
        });
      }
      return result;
    },
    peek: (req) => store.peek(req),
  };
}

/**
 * Admitted slots grouped by window: slots whose window ends lie within half a window of the
 * group's first one (window ends of one key are at least a window apart).
 */
export function windows(slots: readonly AdmittedSlot[], windowMs: number): AdmittedSlot[][] {
  const sorted = [...slots].sort((a, b) => a.windowEnd - b.windowEnd);
  const groups: AdmittedSlot[][] = [];
  for (const slot of sorted) {
    const current = groups.at(-1);
    if (current && slot.windowEnd - (current[0]?.windowEnd ?? 0) < windowMs / 2) current.push(slot);
    else groups.push([slot]);
  }
  return groups;
}

export interface Host {
  readonly url: string;
  close(): Promise<void>;
}

/** `count` createServer hosts, each with its own Redis client and limiter store on `url` + `keyPrefix`. */
export async function hosts(
  t: Test,
  count: number,
  options: {
    readonly url: string;
    readonly keyPrefix: string;
    readonly keys: readonly KeyGrant[];
    readonly slots?: AdmittedSlot[];
    readonly server?: Partial<ServerOptions>;
  },
): Promise<Host[]> {
  const { chain1 } = await fixtureChains();
  const made: Host[] = [];
  for (let i = 0; i < count; i++) {
    const { store, connected } = await connectRedisLimiterStore({ url: options.url, keyPrefix: options.keyPrefix });
    if (!connected) throw new Error(`Redis at ${options.url} did not answer`);
    const limiter = options.slots ? observed(store, i, options.slots) : store;
    const server = createServer({ chains: { '1': chain1 }, keys: options.keys, limiter, log: false, ...options.server });
    const { url } = await server.listen(0);
    made.push({ url, close: () => server.close() });
  }
  t.teardown(() => Promise.all(made.map((h) => h.close())).then(() => undefined));
  return made;
}

export interface Answer {
  readonly host: number;
  readonly reply: Reply;
}

/** `clients` concurrent callers, each sending `each` requests in turn, spread over the hosts. */
export async function burst(
  targets: readonly Host[],
  path: (host: number, i: number) => string,
  clients: number,
  each = 1,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_v, c) => {
      for (let i = 0; i < each; i++) {
        const host = (c + i) % targets.length;
        const target = targets[host] as Host;
        answers.push({ host, reply: await request(`${target.url}${path(host, c * each + i)}`) });
      }
    }),
  );
  return answers;
}

/** A 200 whose limit headers are not real figures (the old fail-open answer). */
export function unlimited(answer: Answer): boolean {
  const h = limitHeaders(answer.reply);
  return answer.reply.status === 200 && !(h.limit > 0 && h.remaining >= 0 && h.reset >= 0 && h.credits >= 0);
}

/** Every answer a JSON object body. */
export function allJson(answers: readonly Answer[]): boolean {
  return answers.every(
    (a) => (a.reply.headers.get('content-type') ?? '').startsWith('application/json') && typeof a.reply.json === 'object' && a.reply.json !== null,
  );
}

export function countStatus(answers: readonly Answer[], status: number): number {
  return answers.filter((a) => a.reply.status === status).length;
}
