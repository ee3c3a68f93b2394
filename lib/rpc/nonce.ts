/**
 * An account's nonce from the store's transactions, where the store can say it exactly: after
 * block `at`, an account (not a contract: contracts count their creations, which the store does
 * not keep per creator) has the nonce of its last transaction at or below `at`, plus one — or 0
 * when it sent none and the store holds the chain from block 0. EIP-7702 authorizations also
 * raise an authority's nonce and the store does not index them, so any set-code transaction in
 * the blocks that count makes the answer unknown (null), as does everything else not listed.
 */
import type { Address } from '../domain/records.ts';
import type { DataSource } from '../ports.ts';

export async function storedNonce(ds: DataSource, address: Address, at: number): Promise<bigint | null> {
  const [addresses, sent, genesis] = await Promise.all([
    ds.getAddresses([address]),
    ds.listTransactions({ status: 'validated', address, direction: 'from', blocks: { to: at } }, { after: null, limit: 1, order: 'desc' }),
    ds.getBlock({ number: 0 }),
  ]);
  if (addresses.some((a) => a.isContract)) return null;
  const last = sent[0];
  if (last === undefined && (genesis === null || !genesis.consensus)) return null;
  const from = last?.blockNumber ?? 0;
  const setCode = await ds.listTransactions(
    { status: 'validated', kinds: ['set_code_transaction'], blocks: { from, to: at } },
    { after: null, limit: 1, order: 'desc' },
  );
  if (setCode.length > 0) return null;
  return last === undefined ? 0n : BigInt(last.nonce) + 1n;
}
