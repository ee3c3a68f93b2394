/** The current coin balance of an address, shared by `account/balance` and `balancemulti`. */
import type { Address } from '../../domain/records.ts';
import type { DataSource } from '../../ports.ts';

/** The newest coin balance the store recorded (0 for an address it never saw). */
export async function currentBalance(ds: DataSource, address: Address): Promise<bigint> {
  if (ds.getCoinBalance !== undefined) return (await ds.getCoinBalance(address)) ?? 0n;
  const [latest] = await ds.listCoinBalances({ address }, { after: null, limit: 1, order: 'desc' });
  return latest?.value ?? 0n;
}

export async function balanceRows(ds: DataSource, addresses: readonly Address[]) {
  const values = await Promise.all(addresses.map((a) => currentBalance(ds, a)));
  return addresses.map((account, i) => ({ account, balance: (values[i] ?? 0n).toString(), stale: false }));
}
