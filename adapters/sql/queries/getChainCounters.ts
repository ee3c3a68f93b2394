/** getChainCounters: the one row the writer keeps (adapters/sql/write/stats.ts, adapters/sql/write/supply.ts). */
import type { ChainCounters } from '../../../lib/ports.ts';
import { asRows, big, num } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function getChainCounters(c: SqlContext): Promise<ChainCounters> {
  const r = asRows(await c.knex('chain_counters').select('blocks', 'transactions', 'addresses', 'gas_used', 'coin_supply', 'zero_balance').where('id', 1))[0];
  if (r === undefined) return { blocks: 0, transactions: 0, addresses: 0, gasUsed: 0n, coinSupply: 0n, zeroAddressCoinBalance: 0n };
  return {
    blocks: num(r, 'blocks'),
    transactions: num(r, 'transactions'),
    addresses: num(r, 'addresses'),
    gasUsed: big(r, 'gas_used'),
    coinSupply: big(r, 'coin_supply'),
    zeroAddressCoinBalance: big(r, 'zero_balance'),
  };
}
