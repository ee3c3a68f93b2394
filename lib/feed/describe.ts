/**
 * A ChangeNotice made whole through the DataSource ports: what a listener in another process
 * (or one catching up) knows of a change it only saw the notice of.
 */
import type { Address, Hash } from '../domain/records.ts';
import type { DataSource } from '../ports.ts';
import type { Change, ChangeNotice } from './change.ts';

/** more rows than any one write stores: the whole range in one page */
const ALL = 1_000_000;

const lower = (a: string): Address => a.toLowerCase() as Address;

export async function describeNotice(ds: DataSource, notice: ChangeNotice): Promise<Change> {
  const addresses = new Set<Address>();
  const tokens = new Set<Address>();
  const transactions: Hash[] = [];
  if (notice.blocks !== null) {
    const blocks = { from: notice.blocks.from, to: notice.blocks.to };
    const [txs, transfers] = await Promise.all([
      ds.listTransactions({ status: 'validated', blocks }, { after: null, limit: ALL, order: 'asc' }),
      ds.listTokenTransfers({ blocks }, { after: null, limit: ALL, order: 'asc' }),
    ]);
    for (const tx of txs) {
      transactions.push(tx.hash);
      addresses.add(lower(tx.from));
      if (tx.to !== null) addresses.add(lower(tx.to));
      if (tx.createdContract !== null) addresses.add(lower(tx.createdContract));
    }
    for (const tt of transfers) {
      addresses.add(lower(tt.from));
      addresses.add(lower(tt.to));
      tokens.add(lower(tt.tokenAddress));
    }
  }
  for (const hash of notice.pendingAdded) {
    const tx = await ds.getTransaction(hash);
    if (tx === null) continue;
    addresses.add(lower(tx.from));
    if (tx.to !== null) addresses.add(lower(tx.to));
  }
  // a dropped transaction's row is gone: its parties came with the notice
  for (const a of notice.droppedParties ?? []) addresses.add(lower(a));
  return { ...notice, transactions, addresses: [...addresses], tokens: [...tokens] };
}
