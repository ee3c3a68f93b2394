/**
 * holders_count (token_holder_counts) moves by the change in (token, holder) pairs holding a
 * positive balance, read from current_token_balances before and after a write's balances land.
 */
import type { Knex } from 'knex';
import type { Dialect } from '../dialect.ts';
import type { Row } from '../rows.ts';
import { asRows, big, str } from '../rows.ts';
import { BULK_ROWS, chunks, insertRows, keyRows } from '../sql.ts';
import type { Key } from './batch.ts';

/** The current balance rows (every token id) of (token, holder) pairs: one statement per BULK_ROWS pairs. */
async function pairRows(trx: Knex.Transaction, d: Dialect, pairs: readonly Key[]): Promise<Row[]> {
  const out: Row[] = [];
  for (const part of chunks(pairs, BULK_ROWS)) {
    const keys = keyRows(d, 'current_token_balances', ['token_address', 'holder'], part);
    // CROSS JOIN: SQLite reads the keys first and seeks the primary key (holder, token_address, …) per key
    const rows = await trx.raw(
      `SELECT c."token_address", c."holder", c."token_id", c."token_type", c."value" FROM ${keys.sql} k ` +
        `CROSS JOIN current_token_balances c${d.byPrimaryKey('current_token_balances')} ` +
        `WHERE c."holder" = k."holder" AND c."token_address" = k."token_address"`,
      [...keys.bindings],
    );
    out.push(...asRows(d.rawRows(rows)));
  }
  return out;
}

/** (token, holder) pairs among `pairs` whose holder has a positive balance of the token, keyed `${token}|${holder}`. */
export async function holding(trx: Knex.Transaction, d: Dialect, pairs: readonly Key[]): Promise<Set<string>> {
  const out = new Set<string>();
  // (value > 0 tested here: as a SQL term it steers SQLite off the primary key)
  for (const r of await pairRows(trx, d, pairs)) if (big(r, 'value') > 0n) out.add(`${str(r, 'token_address')}|${str(r, 'holder')}`);
  return out;
}

/**
 * The stored balances of (token, holder) pairs: values by token id, keyed `${token}|${holder}`,
 * and token types keyed `${token}|${holder}|${stored token_id}`.
 */
export async function pairBalances(
  trx: Knex.Transaction,
  d: Dialect,
  pairs: readonly Key[],
): Promise<{ values: Map<string, Map<string, bigint>>; types: Map<string, string> }> {
  const values = new Map<string, Map<string, bigint>>();
  const types = new Map<string, string>();
  for (const r of await pairRows(trx, d, pairs)) {
    const pair = `${str(r, 'token_address')}|${str(r, 'holder')}`;
    const ids = values.get(pair) ?? new Map<string, bigint>();
    ids.set(String(d.fromIdKey(r.token_id)), big(r, 'value'));
    values.set(pair, ids);
    types.set(`${pair}|${String(r.token_id)}`, str(r, 'token_type'));
  }
  return { values, types };
}

/**
 * The change of holders_count per token: +1 for a (token, holder) pair that holds after and
 * not before, −1 the other way (`before` / `after` take the pair keyed `${token}|${holder}`).
 */
export function holderCountDelta(pairs: readonly Key[], before: (pair: string) => boolean, after: (pair: string) => boolean): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [token, holder] of pairs) {
    const pair = `${String(token)}|${String(holder)}`;
    const change = (after(pair) ? 1 : 0) - (before(pair) ? 1 : 0);
    if (change !== 0) delta.set(String(token), (delta.get(String(token)) ?? 0) + change);
  }
  return delta;
}

/** Add the changes to token_holder_counts (a token's row is created at its first change). */
export async function addHolderCounts(trx: Knex.Transaction, d: Dialect, delta: ReadonlyMap<string, number>): Promise<void> {
  const rows = [...delta].filter(([, n]) => n !== 0).map(([token_address, holders_count]) => ({ token_address, holders_count }));
  await insertRows(
    trx,
    d,
    'token_holder_counts',
    rows,
    'ON CONFLICT ("token_address") DO UPDATE SET "holders_count" = token_holder_counts."holders_count" + excluded."holders_count"',
  );
}
