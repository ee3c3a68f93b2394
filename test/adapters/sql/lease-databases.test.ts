// Postgres' writer lease is an advisory lock, which the server scopes to a database: two stores in
// two databases of one server (same schema name) each hold their own, and a writer finding its
// lease held is told the holder in its own database — not one in another database whose lock
// happens to have the same key (as the holder lookup did before it read pg_locks.database).
import knexFactory from 'knex';
import t from 'tap';
import { createSqlLease } from '../../../adapters/sql/index.ts';
import { databaseUrl, postgresUnreachable, selectedStoreNames } from '../../support/stores.ts';

const why = selectedStoreNames().includes('postgres') ? await postgresUnreachable() : 'postgres not selected';
if (why !== null) {
  t.comment(`postgres skipped: ${why}`);
  t.pass('nothing to check without Postgres');
} else {
  t.test('two databases, one schema name: two leases, each holder named in its own database', async (t) => {
    const admin = knexFactory({ client: 'pg', connection: databaseUrl(), pool: { min: 0, max: 1 } });
    const names = ['a', 'b'].map((x) => `scoutkit_lease_${x}_${process.pid}`);
    for (const name of names) {
      await admin.raw(`DROP DATABASE IF EXISTS ${name}`);
      await admin.raw(`CREATE DATABASE ${name}`);
    }
    t.teardown(async () => {
      for (const name of names) await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    });
    const urlOf = (name: string): string => {
      const url = new URL(databaseUrl());
      url.pathname = `/${name}`;
      return url.toString();
    };
    const [a, b] = names.map((n) => createSqlLease(urlOf(n), { heartbeatMs: 60_000 }));
    if (a === undefined || b === undefined) throw new Error('two leases');
    const heldA = await a.tryAcquire();
    // a later connection: its backend_start differs from the first's
    await new Promise((r) => setTimeout(r, 50));
    const heldB = await b.tryAcquire();
    t.ok(heldA.acquired && heldB.acquired, 'each database has its own lease');
    const [againA, againB] = [await a.tryAcquire(), await b.tryAcquire()];
    t.equal(againA.acquired, false, 'a second writer on A finds it held');
    t.equal(againB.acquired, false, 'a second writer on B finds it held');
    const sinceA = againA.acquired ? null : againA.holder?.since;
    const sinceB = againB.acquired ? null : againB.holder?.since;
    t.ok(typeof sinceA === 'string' && typeof sinceB === 'string', `both holders named (${sinceA}, ${sinceB})`);
    t.not(sinceA, sinceB, "each names its own database's holder (connections started 50 ms apart)");
    t.ok(String(sinceA) < String(sinceB), "A's holder connected first");
    if (heldA.acquired) await heldA.lease.release();
    if (heldB.acquired) await heldB.lease.release();
  });
}
