/**
 * Kept statements (preparedReads.ts): a read answers the same rows from its second run on, through
 * a statement prepared once; a failing text is never kept and keeps answering its error; new
 * bindings reach a kept statement; the oldest texts beyond MAX_STATEMENTS are dropped; the
 * connection closes over kept statements (SQLite refuses to close over unfinalized ones).
 */
import t from 'tap';
import sqlite3 from 'sqlite3';
import { MAX_STATEMENTS, prepareReads } from '../../../adapters/sql/preparedReads.ts';

type Db = InstanceType<typeof sqlite3.Database>;
const all = (db: Db, sql: string, bindings: unknown[] = []) =>
  new Promise<unknown[]>((resolve, reject) => db.all(sql, bindings, (err: Error | null, rows: unknown[]) => (err === null ? resolve(rows) : reject(err))));

async function opened(): Promise<{ db: Db; prepared: string[]; compiled: string[]; settled: () => Promise<void> }> {
  const db = new sqlite3.Database(':memory:');
  const prepared: string[] = [];
  const compiled: string[] = [];
  // a statement is prepared in the background after a read's first run: `settled` waits until
  // every prepare begun has called back (the event, not a time: a loaded machine may take long)
  let preparing = 0;
  let waiting: (() => void)[] = [];
  const settled = (): Promise<void> => (preparing === 0 ? Promise.resolve() : new Promise((resolve) => void waiting.push(resolve)));
  // count what reaches the driver: prepare (kept statements) and all (compiled for one run)
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string, callback: (err: Error | null) => void) => {
    prepared.push(sql);
    preparing += 1;
    return prepare(sql, (err: Error | null) => {
      callback(err);
      preparing -= 1;
      if (preparing > 0) return;
      const ready = waiting;
      waiting = [];
      for (const resolve of ready) resolve();
    });
  }) as typeof db.prepare;
  const driverAll = db.all.bind(db);
  db.all = ((sql: string, ...rest: never[]) => {
    compiled.push(sql);
    return driverAll(sql, ...rest);
  }) as typeof db.all;
  await all(db, 'CREATE TABLE t (id integer, name text)');
  await all(db, `INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL)`);
  prepareReads(db);
  return { db, prepared, compiled, settled };
}

const close = (db: Db) => new Promise<void>((resolve, reject) => db.close((err) => (err === null ? resolve() : reject(err))));

t.test('a text is prepared once and answers every run with its own bindings', async (t) => {
  const { db, prepared, compiled, settled } = await opened();
  const sql = 'select * from t where id >= ? order by id';
  t.same(await all(db, sql, [2]), [{ id: 2, name: 'b' }, { id: 3, name: null }], 'first run');
  await settled();
  compiled.length = 0;
  for (const [from, n] of [[1, 3], [3, 1], [4, 0], [2, 2]] as const) {
    t.equal((await all(db, sql, [from])).length, n, `id >= ${from}: ${n} rows`);
  }
  t.same(compiled, [], 'later runs compile nothing');
  t.equal(prepared.filter((s) => s === sql).length, 1, 'prepared once');
  t.same(await all(db, 'select count(*) as n from t'), [{ n: 3 }], 'a text without bindings');
  await settled();
  t.same(await all(db, 'select count(*) as n from t'), [{ n: 3 }], 'and its kept statement');
  await close(db);
});

t.test('a failing text is never kept and keeps failing', async (t) => {
  const { db, prepared, settled } = await opened();
  for (let i = 0; i < 3; i++) await t.rejects(all(db, 'select * from nowhere'), /no such table/, `run ${i + 1}`);
  await settled();
  t.same(prepared, [], 'nothing prepared for a failing text');
  // a kept text whose table goes away answers the error too (the statement recompiles on the schema change)
  await all(db, 'select * from t where id = ?', [1]);
  await settled();
  await all(db, 'DROP TABLE t');
  await settled();
  t.notOk(prepared.includes('DROP TABLE t'), 'only reads are kept');
  await t.rejects(all(db, 'select * from t where id = ?', [1]), /no such table/, 'kept statement over a dropped table');
  await close(db);
});

t.test('beyond MAX_STATEMENTS the oldest texts are dropped, and close finalizes the rest', async (t) => {
  const { db, prepared, compiled, settled } = await opened();
  for (let i = 0; i < MAX_STATEMENTS + 10; i++) {
    t.same(await all(db, `select ${i} as n, name from t where id = ?`, [1]), [{ n: i, name: 'a' }]);
    await settled();
  }
  t.equal(prepared.length, MAX_STATEMENTS + 10, 'each text prepared once');
  compiled.length = 0;
  await all(db, 'select 0 as n, name from t where id = ?', [1]);
  await all(db, `select ${MAX_STATEMENTS + 9} as n, name from t where id = ?`, [1]);
  t.same(compiled, ['select 0 as n, name from t where id = ?'], 'the oldest was dropped, the newest kept');
  // a prepare still running when the connection closes
  void all(db, 'select name from t where id = 2');
  await close(db);
  t.pass('closed over kept statements');
});
