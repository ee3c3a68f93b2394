/**
 * Concurrent openers: a writer and three readers (child processes, each opening the store as
 * `scoutkit index` / `serve` do: openSqlStore, which migrates) start on ONE new store in every
 * order, with and without small delays, many times: none fails on a lock ("SQLITE_BUSY",
 * "Migration table is already locked"), and the writer's first write goes through. SQLite: a
 * fresh file per round; Postgres (when reachable): a fresh schema per round.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { databaseUrl, postgresUnreachable, selectedStoreNames } from '../../support/stores.ts';

/** one child: opens the store, writer: writes the chain identity; prints "ok" or the error */
const CHILD = `
const { openSqlStore } = await import(process.env.SCOUTKIT_SQL);
const [role, url, schema, delay] = process.argv.slice(1);
await new Promise((r) => setTimeout(r, Number(delay)));
try {
  const store = await openSqlStore(url, schema === '-' ? {} : { searchPath: schema });
  if (role === 'writer') await store.setChainIdentity({ chainId: 31337, genesisHash: '0x' + '11'.repeat(32) });
  else await store.getIndexedHead();
  await store.close();
  process.stdout.write('ok');
} catch (e) {
  process.stdout.write(String(e && e.message));
  process.exitCode = 1;
}
`;

function opener(role: string, url: string, schema: string, delay: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD, role, url, schema, String(delay)], {
      env: { ...process.env, SCOUTKIT_SQL: new URL('../../../adapters/sql/index.ts', import.meta.url).href },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => void (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => void (out += d.toString()));
    child.on('exit', (code) => resolve(code === 0 && out === 'ok' ? 'ok' : `${role}: ${out.trim() || `exit ${code}`}`));
  });
}

t.setTimeout(240_000);

/** the writer's place among the four openers, and whether they start together or a few ms apart */
const ORDERS = [0, 1, 2, 3].flatMap((writerAt) => [false, true].map((spread) => ({ writerAt, spread })));

t.test('a writer and three readers opening one new store in any order never fail on a lock', async (t) => {
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
        // spread: each opener 0-40 ms after the one before (child start-up adds its own jitter)
        const results = await Promise.all(roles.map((role, i) => opener(role, target.url(round), target.schema(round), spread ? i * (10 + ((round * 7) % 30)) : 0)));
        failures.push(...results.filter((r) => r !== 'ok').map((r) => `round ${round} (writer ${writerAt + 1}/4${spread ? ', spread' : ''}): ${r}`));
      }
      t.same(failures, [], `${target.rounds} rounds of 4 openers, none failed`);
    });
  }
});
