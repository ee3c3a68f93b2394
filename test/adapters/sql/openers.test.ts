/**
 * Concurrent openers: a writer and three readers (child processes, each opening the store as
 * `scoutkit index` / `serve` do: openSqlStore, which migrates) start on ONE new store in every
 * order, with and without small delays, many times: none fails on a lock ("SQLITE_BUSY",
 * "Migration table is already locked"), and the writer's first write goes through. SQLite: a
 * fresh file per round; Postgres (when reachable): a fresh schema per round. The four child
 * processes live through every round (each round: each opens the round's store, uses it and
 * closes it), so that node, tsx and the SQL adapter load four times, not four times a round.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import knexFactory from 'knex';
import { databaseUrl, postgresUnreachable, selectedStoreNames } from '../../support/stores.ts';

/**
 * one child: for each line of stdin (a JSON [role, url, schema, delay]), waits the delay, opens
 * the store, writer: writes the chain identity, reader: reads the head; closes it; prints one
 * line, "ok" or the error (JSON)
 */
const CHILD = `
const { openSqlStore } = await import(process.env.SCOUTKIT_SQL);
const { createInterface } = await import('node:readline');
for await (const line of createInterface({ input: process.stdin })) {
  const [role, url, schema, delay] = JSON.parse(line);
  await new Promise((r) => setTimeout(r, delay));
  let out = 'ok';
  try {
    const store = await openSqlStore(url, schema === '-' ? {} : { searchPath: schema });
    if (role === 'writer') await store.setChainIdentity({ chainId: 31337, genesisHash: '0x' + '11'.repeat(32) });
    else await store.getIndexedHead();
    await store.close();
  } catch (e) {
    out = String(e && e.message);
  }
  process.stdout.write(JSON.stringify(out) + '\\n');
}
`;

type Opener = (role: string, url: string, schema: string, delay: number) => Promise<string>;

/** a child process that opens a store on each call; its stderr and an early exit are reported as the answer */
function openerProcess(): { open: Opener; close: () => void } {
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    env: { ...process.env, SCOUTKIT_SQL: new URL('../../../adapters/sql/index.ts', import.meta.url).href },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  const waiting: Array<(answer: string) => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(JSON.parse(line) as string));
  child.on('exit', (code) => {
    for (const answer of waiting.splice(0)) answer(`exit ${code}: ${stderr.trim()}`);
  });
  return {
    open: (role, url, schema, delay) =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(`${role}: exited ${child.exitCode}: ${stderr.trim()}`);
        waiting.push((answer) => resolve(answer === 'ok' ? 'ok' : `${role}: ${answer}`));
        child.stdin.write(`${JSON.stringify([role, url, schema, delay])}\n`);
      }),
    close: () => void child.stdin.end(),
  };
}

/** the writer's place among the four openers, and whether they start together or a few ms apart */
const ORDERS = [0, 1, 2, 3].flatMap((writerAt) => [false, true].map((spread) => ({ writerAt, spread })));

t.test('a writer and three readers opening one new store in any order never fail on a lock', async (t) => {
  const openers = [0, 1, 2, 3].map(() => openerProcess());
  t.teardown(() => openers.forEach((o) => o.close()));
  const dir = mkdtempSync(join(tmpdir(), 'scoutkit-openers-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const names = selectedStoreNames();
  const targets: { name: string; url: (round: number) => string; schema: (round: number) => string; rounds: number }[] = [];
  if (names.includes('sqlite')) targets.push({ name: 'sqlite', url: (r) => `sqlite:${join(dir, `r${r}.sqlite`)}`, schema: () => '-', rounds: ORDERS.length });
  if (names.includes('postgres')) {
    const why = await postgresUnreachable();
    if (why !== null) t.comment(`postgres skipped: ${why}`);
    else {
      const admin = knexFactory({ client: 'pg', connection: databaseUrl(), pool: { min: 0, max: 1 } });
      const prefix = `openers_${process.pid}_`;
      t.teardown(async () => {
        for (let r = 0; r < ORDERS.length; r++) await admin.raw(`DROP SCHEMA IF EXISTS ${prefix}${r} CASCADE`);
        await admin.destroy();
      });
      targets.push({ name: 'postgres', url: () => databaseUrl(), schema: (r) => `${prefix}${r}`, rounds: ORDERS.length });
    }
  }
  for (const target of targets) {
    await t.test(target.name, async (t) => {
      const failures: string[] = [];
      for (let round = 0; round < target.rounds; round++) {
        const { writerAt, spread } = ORDERS[round % ORDERS.length] ?? { writerAt: 0, spread: false };
        const roles = ['reader', 'reader', 'reader'];
        roles.splice(writerAt, 0, 'writer');
        // spread: each opener 10-40 ms after the one before
        const results = await Promise.all(roles.map((role, i) => openers[i].open(role, target.url(round), target.schema(round), spread ? i * (10 + ((round * 7) % 30)) : 0)));
        failures.push(...results.filter((r) => r !== 'ok').map((r) => `round ${round} (writer ${writerAt + 1}/4${spread ? ', spread' : ''}): ${r}`));
      }
      t.same(failures, [], `${target.rounds} rounds of 4 openers, none failed`);
    });
  }
});
