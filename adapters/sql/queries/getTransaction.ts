/** getTransaction: the consensus copy, else the pending one, else the latest-written non-consensus copy. */
import type { Hash, TransactionRecord } from '../../../lib/domain/records.ts';
import type { Row } from '../rows.ts';
import { asRows, num, toTransaction } from '../rows.ts';
import type { SqlContext } from './context.ts';

export async function getTransaction(c: SqlContext, hash: Hash): Promise<TransactionRecord | null> {
  const { knex } = c;
  const mined = asRows(await knex('transactions').where({ hash, consensus: true }).limit(1));
  if (mined.length > 0) return toTransaction(mined[0]);
  const pending = asRows(await knex('pending_transactions').where({ hash }).limit(1));
  if (pending.length > 0) return toTransaction(pending[0]);
  // in non-consensus blocks only: the latest-written block's copy (a handful of rows)
  const others = asRows(await knex('transactions as t').join('blocks as b', 'b.hash', 't.block_hash').select('t.*', 'b.seq as block_seq').where('t.hash', hash));
  let best: Row | null = null;
  for (const r of others) if (best === null || num(r, 'block_seq') > num(best, 'block_seq')) best = r;
  return best === null ? null : toTransaction(best);
}
