/**
 * A Postgres server of the test's own: initdb into a temp dir, on its own free port, stopped and
 * started at will (pg_ctl). As root, initdb and pg_ctl run as the `postgres` user (runuser), and
 * the temp dir is theirs. The binaries: `pg_config --bindir`, else /usr/lib/postgresql/<v>/bin.
 *
 * `standby()` makes a streaming standby of a server (pg_basebackup -R into a temp dir of its own,
 * on its own port, through a replication slot so that it may be stopped and started).
 *
 * Off CI, when initdb is not there, startPostgres says so loudly and answers null (the caller
 * skips); under CI=true it throws.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const root = process.getuid?.() === 0;

export interface OwnPostgres {
  readonly port: number;
  /** a database URL on this server (default database `postgres`) */
  url(database?: string): string;
  /** pg_ctl start (waits until it accepts connections) */
  start(): Promise<void>;
  /** pg_ctl stop -m fast */
  stop(): Promise<void>;
  /** stop it at once and remove its files */
  close(): Promise<void>;
  /** the server's log */
  log(): Promise<string>;
  /** a hot standby streaming from this server (pg_basebackup -R), started; closed with its own close() */
  standby(): Promise<OwnPostgres>;
}

async function bindir(): Promise<string | null> {
  const candidates: string[] = [];
  try {
    candidates.push((await exec('pg_config', ['--bindir'])).stdout.trim());
  } catch {
    // no pg_config
  }
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) for (const v of readdirSync(root).sort().reverse()) candidates.push(join(root, v, 'bin'));
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ?? null;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function startPostgres(): Promise<OwnPostgres | null> {
  const bin = await bindir();
  if (bin === null) {
    const why = 'initdb/pg_ctl not found (pg_config --bindir, /usr/lib/postgresql/*/bin)';
    if (process.env.CI === 'true') throw new Error(`CI=true requires a Postgres server of the test's own: ${why}`);
    console.error(`!!!!! POSTGRES BINARIES UNAVAILABLE: ${why} — SKIPPING THIS POSTGRES TEST !!!!!`);
    return null;
  }
  const as = (cmd: string, args: readonly string[]) =>
    root ? exec('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : exec(join(bin, cmd), [...args]);
  const dir = await ownDir();
  const port = await freePort();
  await as('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  return serverIn(dir, port, as);
}

type RunAs = (cmd: string, args: readonly string[]) => Promise<{ stdout: string }>;

/** a temp dir the server's user owns */
async function ownDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'scoutkit-pg-'));
  if (root) {
    const uid = Number((await exec('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await exec('id', ['-g', 'postgres'])).stdout.trim());
    await chown(dir, uid, gid);
  }
  return dir;
}

let slots = 0;

/** the server whose data dir is `<dir>/data`, started on `port` */
async function serverIn(dir: string, port: number, as: RunAs): Promise<OwnPostgres> {
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const pg: OwnPostgres = {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => {
      await as('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', '-o', options, 'start']);
    },
    stop: async () => {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    close: async () => {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
    log: async () => (await exec('cat', [logFile]).catch(() => ({ stdout: '' }))).stdout,
    standby: async () => {
      const standbyDir = await ownDir();
      const slot = `standby_${process.pid}_${++slots}`;
      try {
        // -R: standby.signal and primary_conninfo; -C -S: a slot keeps the WAL a stopped standby still needs
        await as('pg_basebackup', ['-D', join(standbyDir, 'data'), '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-R', '-X', 'stream', '-C', '-S', slot, '-c', 'fast', '--no-sync']);
      } catch (e) {
        await rm(standbyDir, { recursive: true, force: true });
        throw e;
      }
      return serverIn(standbyDir, await freePort(), as);
    },
  };
  try {
    await pg.start();
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  return pg;
}
