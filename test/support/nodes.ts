/**
 * The Node versions users run, beside the one running the suite: Node 22 and 24, from npm's
 * `node` package (`npx -y node@<major>`, through npm's cache; the binary is found once per test
 * process and then run directly). Used by test/package/install.test.ts and
 * test/package/node-versions.test.ts.
 *
 * Off CI, when npm cannot provide a version (no registry, no cache), that version is skipped
 * after one loud line; under CI=true every version is required.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cleanEnv, run } from './package.ts';

/** the majors tested besides the suite's own node (see "engines" in package.json) */
export const NODE_MAJORS = ['22', '24'] as const;
export type NodeMajor = (typeof NODE_MAJORS)[number];

export interface NodeBinary {
  readonly major: NodeMajor;
  /** the version it reports, e.g. v24.21.0 */
  readonly version: string;
  /** absolute path of the node executable */
  readonly path: string;
}

const found = new Map<NodeMajor, Promise<NodeBinary | null>>();

/**
 * Test files run in parallel and two may ask npx for the same version at once: on a fresh
 * machine both would install it into one npx cache folder. A lock folder (mkdir is atomic)
 * lets one process at a time ask; a lock older than two minutes is taken as left by a crash.
 */
async function withNpxLock<T>(f: () => Promise<T>): Promise<T> {
  const lock = join(tmpdir(), 'scoutkit-npx-node.lock');
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > 120_000) await rm(lock, { recursive: true, force: true });
      else await sleep(200);
    }
  }
  try {
    return await f();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function locate(major: NodeMajor): Promise<NodeBinary | null> {
  try {
    const { stdout } = await withNpxLock(() => run('npx', ['-y', `node@${major}`, '-p', 'process.execPath + " " + process.version'], tmpdir(), cleanEnv()));
    const [path, version] = stdout.trim().split(' ');
    if (!path || !version?.startsWith(`v${major}.`)) throw new Error(`npx node@${major} answered ${stdout.trim()}`);
    return { major, version, path };
  } catch (error) {
    if (process.env.CI === 'true') throw new Error(`CI=true requires Node ${major} (npx -y node@${major}): ${String(error)}`);
    console.error(`!!!!! NODE ${major} UNAVAILABLE (npx -y node@${major} failed) — SKIPPING THE CHECKS UNDER NODE ${major} !!!!!\n${String(error)}`);
    return null;
  }
}

/** The node binary of `major`, or null off CI when npm cannot provide it (announced once). */
export function nodeBinary(major: NodeMajor): Promise<NodeBinary | null> {
  let binary = found.get(major);
  if (binary === undefined) {
    binary = locate(major);
    found.set(major, binary);
  }
  return binary;
}

/** Every version of NODE_MAJORS that is available. */
export async function otherNodes(): Promise<NodeBinary[]> {
  const all = await Promise.all(NODE_MAJORS.map(nodeBinary));
  return all.filter((b): b is NodeBinary => b !== null);
}
