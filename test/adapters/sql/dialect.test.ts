/**
 * uint256 as sortable SQLite text: the 78-digit keys order exactly like the numbers (in JS and
 * in SQLite's ORDER BY / comparisons), decode back, and the null token id sorts lowest.
 */
import t from 'tap';
import { openSqlStore } from '../../../adapters/sql/index.ts';
import { dialectOf, toBig } from '../../../adapters/sql/dialect.ts';
import { asRows } from '../../../adapters/sql/rows.ts';

const MAX_UINT256 = 2n ** 256n - 1n;
const values = [0n, 1n, 9n, 10n, 99n, 100n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 64n + 5n, 10n ** 30n, 2n ** 255n, MAX_UINT256 - 1n, MAX_UINT256, -1n, -(2n ** 70n)];

t.test('sqlite keys sort and compare like the numbers', async (t) => {
  const store = await openSqlStore('sqlite::memory:', { migrate: false });
  t.teardown(() => store.close());
  const d = dialectOf(store.knex);
  t.equal(d.name, 'sqlite');
  for (const v of values) {
    t.equal(toBig(d.key(v)), v, `round trip ${v}`);
    if (v >= 0n) t.equal(d.key(v).length, 78, `fixed width ${v}`);
  }
  t.equal(d.fromIdKey(d.idKey(null)), null, 'null id round trip');
  t.throws(() => d.key(10n ** 78n), RangeError, 'too wide to store');
  t.equal(d.probe(10n ** 80n) > d.key(MAX_UINT256), true, 'probes clamp above every uint256');

  await store.knex.schema.createTable('k', (tb) => tb.text('v'));
  await store.knex('k').insert([...values.map((v) => ({ v: d.key(v) })), { v: d.idKey(null) }]);
  const sorted = asRows(await store.knex('k').select('v').orderBy('v', 'desc')).map((r) => d.fromIdKey(r.v));
  const expected = [...values].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  t.strictSame(sorted, [...expected, null], 'ORDER BY v DESC is numeric DESC, null lowest');
  const below = asRows(await store.knex('k').select('v').where('v', '<', d.key(2n ** 64n + 5n)).andWhere('v', '<>', d.idKey(null)));
  t.equal(below.length, values.filter((v) => v < 2n ** 64n + 5n).length, 'comparisons are numeric');
});

t.test('dialect differences live in dialect.ts only', async (t) => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const root = join(import.meta.dirname, '../../../adapters/sql');
  // packedRows.ts is the SQLite dialect's reader (row packing), used by dialect.ts only;
  // migrations/frozen/dialect.ts is the migrations' own frozen copy of the dialect (they import no live code)
  // lease.ts holds the two databases' own locks (a Postgres advisory lock on a client of its own,
  // an SQLite file lock), a mechanism per database rather than SQL through knex
  const own = new Set(['dialect.ts', 'packedRows.ts', 'migrations/frozen/dialect.ts', 'lease.ts']);
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !own.has(f.split('\\').join('/')));
  t.ok(files.length >= 8, `${files.length} files of the SQL adapter read`);
  const branching = /\.name\s*[!=]==\s*['"](sqlite|postgres)['"]|client\s*[!=]==|['"]sqlite3['"]|['"]pg['"]|\bPRAGMA\b|CREATE SCHEMA|unnest\(|json_object\(/;
  const leaks = files.filter((f) => branching.test(readFileSync(join(root, f), 'utf8')));
  t.same(leaks, [], 'no file branches on the dialect or writes dialect-only SQL');
});
