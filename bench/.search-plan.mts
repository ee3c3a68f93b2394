import { openSqlStore } from '/work/wt-search/adapters/sql/index.ts';
import { loadFixtureChain } from '/work/wt-search/fixture/index.ts';
const store = await openSqlStore(process.argv[2] ?? 'sqlite::memory:');
if (process.argv[2] === undefined) await loadFixtureChain(store);
await store.knex.raw('ANALYZE');
const prefix = process.argv[3] ?? 'bulk', bound = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
const walk = (from: string) => `SELECT s.holders_rank, s.name_null, s.name_key, s.address FROM ${from} WHERE ((s.name_lower >= '${prefix}' AND s.name_lower < '${bound}') OR (s.symbol_lower >= '${prefix}' AND s.symbol_lower < '${bound}')) ORDER BY s.holders_rank, s.name_null, s.name_key, s.address LIMIT 51`;
for (const sql of [walk('token_search AS s'), `SELECT s.holders_rank, s.name_null, s.name_key, s.address FROM token_search s WHERE s.symbol_lower >= '${prefix}' AND s.symbol_lower < '${bound}' ORDER BY s.holders_rank, s.name_null, s.name_key, s.address LIMIT 51`]) {
  console.log(sql.slice(0, 60), (await store.knex.raw(`EXPLAIN QUERY PLAN ${sql}`)).map((r: { detail: string }) => r.detail));
}
await store.close();
