/**
 * listWithdrawals: (withdrawal_index DESC, block_number DESC), keyset `withdrawal_index < ?`.
 * A seek on withdrawals_address (address = ?), withdrawals_block (one block: block_number = ?)
 * or withdrawals_list (otherwise). A wider block range is a row condition on the seek: it walks
 * the index from the cursor past the rows above the range (on a real chain indexes grow with
 * the blocks, so those are the newer blocks' rows). Migration 007.
 */
import type { Address, Hash, WithdrawalRecord } from '../../../lib/domain/records.ts';
import type { Page, WithdrawalCursor, WithdrawalFilter } from '../../../lib/ports.ts';
import { asRows, big, num, address, hash } from '../rows.ts';
import type { Row } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { orderBy, pageSize, past } from './seek.ts';

const COLUMNS = ['withdrawal_index', 'validator_index', 'address', 'amount', 'block_number', 'block_hash', 'timestamp'] as const;

function toWithdrawal(r: Row): WithdrawalRecord {
  return {
    index: num(r, 'withdrawal_index'),
    validatorIndex: num(r, 'validator_index'),
    address: address(r, 'address'),
    amount: big(r, 'amount'),
    blockNumber: num(r, 'block_number'),
    blockHash: hash(r, 'block_hash'),
    timestamp: num(r, 'timestamp'),
  };
}

export async function listWithdrawals(c: SqlContext, filter: WithdrawalFilter, page: Page<WithdrawalCursor>): Promise<readonly WithdrawalRecord[]> {
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const { address, blocks } = filter;
  let q = c.knex('withdrawals').select(...COLUMNS);
  if (address !== undefined) q = q.where('address', address);
  if (blocks?.from !== undefined && blocks.from === blocks.to) q = q.where('block_number', blocks.from);
  // a wider range is a row condition on the index in list order ((block_number + 0) keeps the
  // planners off withdrawals_block, whose order would need a sort step)
  else {
    if (blocks?.from !== undefined) q = q.whereRaw('(block_number + 0) >= ?', [blocks.from]);
    if (blocks?.to !== undefined) q = q.whereRaw('(block_number + 0) <= ?', [blocks.to]);
  }
  if (page.after !== null) q = past(q, ['withdrawal_index'], [page.after.index], page.order);
  const rows = asRows(
    await q
      .orderBy(
        orderBy(
          [
            ['withdrawal_index', 'desc'],
            ['block_number', 'desc'],
          ],
          page.order,
        ),
      )
      .limit(n),
  );
  return rows.map(toWithdrawal);
}
