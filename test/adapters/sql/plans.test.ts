/**
 * Every list query is a seek served by an index in its sort order: run the digest's reads on
 * SQLite (and on Postgres with sequential scans and sorts priced out), capture each SQL statement that
 * carries a LIMIT or a COUNT, and check its plan: no full-table scan, no sort step for the ORDER BY.
 */
import t from 'tap';
import type { Knex } from 'knex';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import type { SqlStore } from '../../../adapters/sql/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { storeFactories, databaseUrl } from '../../support/stores.ts';
import { chainKeys, digest } from './digest.ts';

interface Captured {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

function isQueryEvent(v: unknown): v is { sql: string; bindings?: unknown[] } {
  return typeof v === 'object' && v !== null && 'sql' in v && typeof v.sql === 'string';
}

async function capture(store: SqlStore, run: () => Promise<unknown>): Promise<Captured[]> {
  const seen = new Map<string, Captured>();
  const listener = (q: unknown) => {
    // lists (a LIMIT) and counts (countTokenTransfers): both must be index range scans
    if (!isQueryEvent(q) || !/\blimit\b|^\s*select count\(\*\)/i.test(q.sql) || !/^\s*select/i.test(q.sql)) return;
    if (!seen.has(q.sql)) seen.set(q.sql, { sql: q.sql, bindings: q.bindings ?? [] });
  };
  // the reads run on the reader pool (on Postgres its own; planned below on the writer's, in a transaction that prices scans out)
  store.reader.on('query', listener);
  try {
    await run();
  } finally {
    store.reader.removeListener('query', listener);
  }
  return [...seen.values()];
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  const rows = Array.isArray(result) ? result : typeof result === 'object' && result !== null && 'rows' in result ? result.rows : [];
  return Array.isArray(rows) ? rows.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null) : [];
}

async function planOf(knex: Knex, dialect: 'sqlite' | 'postgres', c: Captured): Promise<string[]> {
  const bindings = c.bindings.map((b) => (typeof b === 'bigint' ? b.toString() : b)) as Knex.RawBinding[];
  if (dialect === 'sqlite') {
    return rowsOf(await knex.raw(`EXPLAIN QUERY PLAN ${c.sql}`, bindings)).map((r) => String(r.detail));
  }
  const sql = c.sql.replace(/\$\d+/g, '?');
  // with scans and sorts priced out, a remaining scan or sort means no index serves the query;
  // SET LOCAL in the EXPLAIN's own transaction: a pool may replace an idle connection, and its settings with it
  return knex.transaction(async (trx) => {
    for (const setting of ['enable_seqscan', 'enable_sort', 'enable_incremental_sort']) await trx.raw(`SET LOCAL ${setting} = off`);
    return rowsOf(await trx.raw(`EXPLAIN ${sql}`, bindings)).map((r) => String(r['QUERY PLAN']));
  });
}

const selected = (await storeFactories()).map((f) => f.name).filter((n) => n !== 'memory');
if (selected.length === 0) t.pass('no SQL store selected');

for (const name of selected) {
  await t.test(`${name}: list queries are index seeks without a sort step`, async (t) => {
    const schema = `scoutkit_plans_${process.pid}`;
    const store = name === 'sqlite' ? await openSqlStore('sqlite::memory:') : await openSqlStore(databaseUrl(), { searchPath: schema, poolSize: 1 });
    t.teardown(async () => {
      if (name === 'postgres') await store.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
      await store.close();
    });
    const chain = await loadFixtureChain(store);
    if (name === 'postgres') await store.knex.raw('ANALYZE');
    const queries = await capture(store, () => digest(store, chainKeys(chain.bundles, chain.pending), { limit: 7, stride: 25, ascEvery: 1 }));
    t.ok(queries.length >= 20, `captured ${queries.length} distinct list statements`);
    t.ok(queries.filter((q) => /^\s*select count\(\*\)/i.test(q.sql)).length >= 2, 'the transfer counts (per token, per id) are among them');
    const bad: string[] = [];
    for (const q of queries) {
      const plan = await planOf(store.knex, store.dialect, q);
      const problems =
        store.dialect === 'sqlite'
          ? // SCAN seekN reads back one branch of a UNION ALL of seeks (a LIMITed co-routine), not a table
            plan.filter((l) => /TEMP B-TREE FOR ORDER BY/.test(l) || (/^SCAN /.test(l) && !/INDEX/.test(l) && !/^SCAN seek\d+$/.test(l)))
          : plan.filter((l) => /Seq Scan/.test(l) || /^\s*(->\s*)?Sort\b/.test(l));
      if (problems.length > 0) bad.push(`${q.sql}\n    ${plan.join('\n    ')}`);
    }
    t.same(bad, [], 'every list statement seeks an index in order');
  });
}
