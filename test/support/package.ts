/**
 * The package as a user gets it: build and pack this repo, install the tarball into a fresh
 * project that has nothing else, run its `scoutkit` bin with plain node. Used by
 * test/package/install.test.ts and bench/package.ts.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** the repo's own tools, run from the consumer project */
export const repoBin = (name: string): string => join(repoRoot, 'node_modules', '.bin', name);

/**
 * This environment without what the test runner and npm put in it (npm_* settings such as the
 * project prefix, NODE_OPTIONS loaders such as tsx): a child sees what a user's shell would.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(npm_|NODE_OPTIONS$|TAP|_TAPJS)/i.test(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

export interface Ran {
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Run a command to its end; rejects with its output when it fails. */
export async function run(file: string, args: readonly string[], cwd: string, env = cleanEnv()): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(file, [...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const ms = performance.now() - started;
      if (error) reject(new Error(`${file} ${args.join(' ')} failed (${error.code ?? error.signal}):\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr, ms });
    });
  });
}

export interface Packed {
  readonly tarball: string;
  /** bytes of the .tgz */
  readonly size: number;
  readonly unpackedSize: number;
  /** paths inside the package */
  readonly files: readonly string[];
  /** null when dist/ was current and the build did not run */
  readonly buildMs: number | null;
}

/** the latest (`newest`) or earliest change time of the files under a path (a file: its own), or null when it is absent */
function changed(path: string, newest: boolean): number | null {
  if (!existsSync(path)) return null;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let found: number | null = null;
  for (const name of readdirSync(path)) {
    const t = changed(join(path, name), newest);
    if (t !== null && (found === null || (newest ? t > found : t < found))) found = t;
  }
  return found;
}

/**
 * Whether dist/ was built after the last change to every file the build reads — as npm test
 * leaves it, having built first. Then the build is not run again: `npm run build` empties dist/
 * first, and the test files that import the build (the examples, the Node versions' slice, the
 * verification clients) run beside this one.
 */
export function distIsCurrent(root = repoRoot): boolean {
  const built = changed(join(root, 'dist'), false);
  if (built === null) return false;
  const inputs = ['lib', 'adapters', 'host', 'fixture', 'demo', 'bin', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
  return inputs.every((p) => {
    const t = changed(join(root, p), true);
    return t === null || t <= built;
  });
}

/** `npm run build` (unless dist/ is current: distIsCurrent), then `npm pack` into `dest`. */
export async function packScoutkit(dest: string): Promise<Packed> {
  const build = distIsCurrent() ? null : await run('npm', ['run', 'build', '--silent'], repoRoot);
  // the build is current: skip prepack's, which would run it again
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], repoRoot);
  const [info] = JSON.parse(stdout) as [{ filename: string; size: number; unpackedSize: number; files: { path: string }[] }];
  return {
    tarball: join(dest, info.filename),
    size: info.size,
    unpackedSize: info.unpackedSize,
    files: info.files.map((f) => f.path).sort(),
    buildMs: build?.ms ?? null,
  };
}

export interface Installed extends Ran {
  /** the installed packages that have install scripts (or a binding.gyp, which implies one) */
  readonly installScripts: readonly string[];
}

/**
 * A new project in `dir` that installs only the tarball, as `npm i scoutkit` would, from the
 * registry through npm's cache (`--prefer-offline`); @scarf/scarf's telemetry script is denied,
 * as in this repo.
 *
 * `sqlite3: 'build'` runs every install script: sqlite3 downloads its prebuilt binary from
 * GitHub or, out of reach as here, compiles from source (2-3 minutes on 2 cores).
 * `sqlite3: 'reuse'` installs with `--ignore-scripts` and copies this repo's sqlite3 binary
 * (the same version, built by this repo's `npm ci` on this machine) where sqlite3's own install
 * would put it: what its prebuilt download does, without the network. The caller checks
 * `installScripts` to know which scripts that skipped.
 */
export async function installTarball(dir: string, tarball: string, sqlite3: 'build' | 'reuse' = 'build'): Promise<Installed> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'scoutkit-consumer', version: '1.0.0', private: true, type: 'module', allowScripts: { sqlite3: true, '@scarf/scarf': false } }, null, 2)}\n`,
  );
  const args = ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
  // JOBS: node-gyp compiles sqlite3's files in parallel
  const installed = await run('npm', sqlite3 === 'reuse' ? [...args, '--ignore-scripts'] : args, dir, cleanEnv({ JOBS: 'max' }));
  if (sqlite3 === 'reuse') {
    const version = async (root: string): Promise<string> =>
      (JSON.parse(await readFile(join(root, 'node_modules', 'sqlite3', 'package.json'), 'utf8')) as { version: string }).version;
    const [ours, theirs] = [await version(repoRoot), await version(dir)];
    if (ours !== theirs) throw new Error(`sqlite3 ${theirs} installed, this repo has ${ours}: cannot reuse its binary`);
    const binary = join('node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
    await mkdir(dirname(join(dir, binary)), { recursive: true });
    await copyFile(join(repoRoot, binary), join(dir, binary));
  }
  const { stdout } = await run('npm', ['query', '*'], dir);
  const nodes = JSON.parse(stdout) as { name: string; version: string; path: string; location: string; scripts?: Record<string, string> }[];
  const installScripts = nodes
    .filter((n) => n.location !== '' && (['preinstall', 'install', 'postinstall'].some((s) => n.scripts?.[s] !== undefined) || existsSync(join(n.path, 'binding.gyp'))))
    .map((n) => n.name)
    .sort();
  return { ...installed, installScripts };
}

export interface Served {
  readonly url: string;
  readonly child: ChildProcess;
  /** ms from spawn to the `listening` log line */
  readonly listeningMs: number;
  readonly started: number;
  /** every JSON log line so far */
  readonly lines: readonly Record<string, unknown>[];
  stop(): Promise<number | null>;
}

/**
 * Start the installed `scoutkit serve` (node_modules/.bin/scoutkit, plain node: the `node` on the
 * PATH, or the binary `node` names) and wait for `listening`.
 */
export async function startServe(project: string, args: readonly string[], node?: string): Promise<Served> {
  const started = performance.now();
  const bin = join(project, 'node_modules', '.bin', 'scoutkit');
  const [file, binArgs] = node === undefined ? [bin, ['serve', ...args, '--log-format', 'json']] : [node, [bin, 'serve', ...args, '--log-format', 'json']];
  const child = spawn(file, binArgs, {
    cwd: project,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines: Record<string, unknown>[] = [];
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        lines.push(parsed);
        if (parsed.msg === 'listening') resolve(String(parsed.url));
      } catch {
        lines.push({ text: line });
      }
    });
    void exited.then(([code]) => reject(new Error(`scoutkit serve exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    listeningMs: performance.now() - started,
    started,
    lines,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
}
