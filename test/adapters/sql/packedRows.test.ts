/**
 * Packed reads (packedRows.ts): a table-row select answers the same rows packed as plain, from
 * its second run on, and only those selects are packed (computed values, a bare * over a join,
 * and writes go through unchanged).
 */
import t from 'tap';
import sqlite3 from 'sqlite3';
import { packRows } from '../../../adapters/sql/packedRows.ts';

type Db = InstanceType<typeof sqlite3.Database>;
const all = (db: Db, sql: string, bindings: unknown[] = []) =>
  new Promise<unknown[]>((resolve, reject) => db.all(sql, bindings, (err: Error | null, rows: unknown[]) => (err === null ? resolve(rows) : reject(err))));

const plain = new sqlite3.Database(':memory:');
const packed = new sqlite3.Database(':memory:');
const seen: string[] = [];
const driverAll = packed.all.bind(packed);
packed.all = ((sql: string, ...rest: never[]) => {
  seen.push(sql);
  return driverAll(sql, ...rest);
}) as typeof packed.all;
packRows(packed);
for (const db of [plain, packed]) {
  await all(db, 'CREATE TABLE t (id integer, name text, big integer, flag boolean, kinds text)');
  await all(db, 'CREATE TABLE u (id integer, name text)');
  await all(db, `INSERT INTO t VALUES (1, 'a"\\b', 9007199254740993, 1, '["x"]'), (2, NULL, -5, 0, '[]'), (3, 'ü\n', 0, NULL, '')`);
  await all(db, `INSERT INTO u VALUES (1, 'one')`);
}

const statements: [string, unknown[], boolean][] = [
  ['select * from t where id > ? order by id desc', [0], true],
  ['select `t`.* from t left join u on u.id = t.id order by t.id', [], true],
  ['select `t`.*, `u`.`name` from t left join u on u.id = t.id order by t.id', [], false],
  ['select *, 0 as seek_branch from (select * from t where id = ?) as seek0 union all select *, 1 as seek_branch from (select * from t where id > ?) as seek1', [1, 1], true],
  ['select count(*) as n, avg(id) / 3.0 as r from t', [], false],
  ['select * from t join u on u.id = t.id', [], false],
];
for (const [sql, bindings, packs] of statements) {
  const expected = await all(plain, sql, bindings);
  t.same(await all(packed, sql, bindings), expected, `first run: ${sql}`);
  seen.length = 0;
  t.same(await all(packed, sql, bindings), expected, `second run: ${sql}`);
  t.equal(seen.some((s) => s.startsWith('select json_object(')), packs, packs ? 'packed from the second run' : 'never packed');
}
t.same(await all(packed, 'select * from t where id = ?', [99]), [], 'no rows: nothing learnt, still answered');
plain.close();
packed.close();
