/**
 * getTransactions: getTransaction for a batch of hashes — the consensus copies in one query per
 * chunk of keys (the hash index), then the pending ones among the rest, then (rare: only
 * transactions of blocks that lost consensus) one getTransaction per hash still missing.
 */
import type { Hash, TransactionRecord } from '../../../lib/domain/records.ts';
import { asRows, toTransaction, hash } from '../rows.ts';
import { KEY_CHUNK, chunks } from '../sql.ts';
import type { SqlContext } from './context.ts';
import { getTransaction } from './getTransaction.ts';

export async function getTransactions(c: SqlContext, hashes: readonly Hash[]): Promise<readonly TransactionRecord[]> {
  const { knex } = c;
  const found = new Map<Hash, TransactionRecord>();
  const read = async (table: string, keys: readonly Hash[], consensus: boolean): Promise<void> => {
    const parts = await Promise.all(
      chunks(keys, KEY_CHUNK).map(async (part) => asRows(await (consensus ? knex(table).whereIn('hash', part).where({ consensus: true }) : knex(table).whereIn('hash', part)))),
    );
    for (const rows of parts) for (const r of rows) found.set(hash(r, 'hash'), toTransaction(r));
  };
  const unique = [...new Set(hashes)];
  await read('transactions', unique, true);
  const notMined = unique.filter((h) => !found.has(h));
  if (notMined.length > 0) await read('pending_transactions', notMined, false);
  for (const h of unique.filter((x) => !found.has(x))) {
    const other = await getTransaction(c, h);
    if (other !== null) found.set(h, other);
  }
  return unique.flatMap((h) => {
    const tx = found.get(h);
    return tx === undefined ? [] : [tx];
  });
}
