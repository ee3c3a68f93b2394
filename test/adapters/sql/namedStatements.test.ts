/**
 * Named statements (namedStatements.ts) on a real Postgres: a text runs unnamed the first time and
 * named from the second on, with the same answers for any bindings; utility commands and one-off
 * texts stay unnamed; a kept plan the server refuses after a table's columns changed runs once
 * more unnamed, and the text is named afresh.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { nameStatements } from '../../../adapters/sql/namedStatements.ts';
import { databaseUrl, postgresUnreachable } from '../../support/stores.ts';

const why = await postgresUnreachable();
if (why !== null) {
  if (process.env.CI) throw new Error(`Postgres is required under CI: ${why}`);
  t.comment(`!!! Postgres unreachable (${why}): the named statements test is SKIPPED`);
} else {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  const schema = `scoutkit_n_${process.pid}_${randomBytes(4).toString('hex')}`;
  t.teardown(async () => {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`SET search_path TO "${schema}"`);
  await client.query('CREATE TABLE t (id integer, name text)');
  await client.query(`INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL)`);

  // what reaches node-postgres: each config's name (or none)
  const sent: { text: string; name: unknown }[] = [];
  const driverQuery = client.query.bind(client) as (config: unknown, ...rest: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
    if (typeof config === 'object' && config !== null && 'text' in config) sent.push({ text: String(config.text), name: 'name' in config ? config.name : undefined });
    return driverQuery(config, ...rest);
  };
  nameStatements(client as unknown as { query(config: unknown, ...rest: unknown[]): unknown });
  /** knex's call: a { text, values } config and a callback */
  const run = (text: string, values: unknown[] = []) =>
    new Promise<Record<string, unknown>[]>((resolve, reject) =>
      (client as unknown as { query(c: unknown, cb: (err: Error | null, r: { rows: Record<string, unknown>[] }) => void): void }).query({ text, values }, (err, r) => (err ? reject(err) : resolve(r.rows))),
    );

  t.test('a repeated text runs named, with the same answers', async (t) => {
    sent.length = 0;
    const sql = 'select * from t where id >= $1 order by id';
    t.same(await run(sql, [2]), [{ id: 2, name: 'b' }, { id: 3, name: null }], 'first run');
    for (const [from, n] of [[1, 3], [3, 1], [4, 0], [2, 2], [1, 3], [1, 3], [1, 3]] as const) {
      t.equal((await run(sql, [from])).length, n, `id >= ${from}: ${n} rows`);
    }
    const names = sent.filter((s) => s.text === sql).map((s) => s.name);
    t.equal(names[0], undefined, 'the first run is unnamed');
    t.ok(typeof names[1] === 'string' && names.slice(1).every((n) => n === names[1]), 'later runs share one name');
  });

  t.test('utility commands stay unnamed', async (t) => {
    sent.length = 0;
    for (let i = 0; i < 3; i++) await run('SET statement_timeout = 0');
    t.same(sent.map((s) => s.name), [undefined, undefined, undefined]);
  });

  t.test('a refused kept plan runs again unnamed, and the text is named afresh', async (t) => {
    const sql = 'select * from t where id = $1';
    await run(sql, [1]);
    await run(sql, [1]);
    await client.query('ALTER TABLE t ADD COLUMN extra integer');
    sent.length = 0;
    t.same(await run(sql, [1]), [{ id: 1, name: 'a', extra: null }], 'the new column is answered');
    t.equal(sent.length, 2, 'refused named, run unnamed');
    t.equal(sent[1]?.name, undefined);
    sent.length = 0;
    await run(sql, [1]);
    await run(sql, [2]);
    t.equal(sent[0]?.name, undefined, 'seen once more');
    t.ok(typeof sent[1]?.name === 'string' && sent[1]?.name !== undefined, 'then named again');
  });
}
