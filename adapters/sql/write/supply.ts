/**
 * The coin supply the SQL sink keeps in chain_counters (migration 014): Σ of the positive
 * current coin balances and the zero address's current balance. A write's change of current
 * balances (address_counters.balance, ./counters.ts) moves them by new − old inside
 * the same database transaction, so a rollback takes back exactly what the removed rows gave
 * and a re-write (nothing changes) moves nothing.
 */
import type { Knex } from 'knex';
import type { Address } from '../../../lib/domain/records.ts';
import type { Dialect } from '../dialect.ts';
import { asRows, big } from '../rows.ts';
import { ZERO_ADDRESS } from '../../../lib/domain/hex.ts';

type Db = Knex | Knex.Transaction;


const positive = (v: bigint | null): bigint => (v !== null && v > 0n ? v : 0n);

/** What a write changes: Σ positive balances and the zero address's balance. */
export class SupplyDelta {
  supply = 0n;
  zero = 0n;

  /** an address's current balance went from `before` to `after` (null: none) */
  move(address: Address, before: bigint | null, after: bigint | null): void {
    this.supply += positive(after) - positive(before);
    if (address === ZERO_ADDRESS) this.zero += (after ?? 0n) - (before ?? 0n);
  }

  get isEmpty(): boolean {
    return this.supply === 0n && this.zero === 0n;
  }
}

/** Add a delta to the kept supply (the chain_counters row). */
export async function applySupplyDelta(db: Db, d: Dialect, delta: SupplyDelta): Promise<void> {
  if (delta.isEmpty) return;
  const r = asRows(await db('chain_counters').select('coin_supply', 'zero_balance').where('id', 1))[0];
  if (r === undefined) {
    await db('chain_counters').insert({ id: 1, blocks: 0, transactions: 0, addresses: 0, gas_used: d.big(0n), coin_supply: d.big(delta.supply), zero_balance: d.big(delta.zero) });
    return;
  }
  await db('chain_counters')
    .where('id', 1)
    .update({ coin_supply: d.big(big(r, 'coin_supply') + delta.supply), zero_balance: d.big(big(r, 'zero_balance') + delta.zero) });
}
