/**
 * listUserOperationBundles: the operations grouped by (block_number, transaction_hash,
 * bundle_index), in that order DESC, read along user_operations_bundles (or, with a bundler,
 * user_operations_bundler_bundles); an entry point is a condition on the group (a bundle
 * matches when any of its operations went to it). Migration 026.
 */
import type { Address, Hash } from '../../../lib/domain/records.ts';
import type { Page, UserOperationBundle, UserOperationBundleCursor, UserOperationBundleFilter } from '../../../lib/ports.ts';
import { asRows, num, address, hash } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { orderBy, pageSize, past } from './seek.ts';

export async function listUserOperationBundles(
  c: SqlContext,
  filter: UserOperationBundleFilter,
  page: Page<UserOperationBundleCursor>,
): Promise<readonly UserOperationBundle[]> {
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const { knex } = c;
  let q = knex('user_operations').select(
    'block_number',
    'transaction_hash',
    'bundle_index',
    knex.raw('min(timestamp) as timestamp'),
    knex.raw('min(bundler) as bundler'),
    knex.raw('count(*) as total_ops'),
  );
  if (filter.bundler !== undefined) q = q.where('bundler', filter.bundler);
  const key = ['block_number', 'transaction_hash', 'bundle_index'];
  if (page.after !== null) q = past(q, key, [page.after.blockNumber, page.after.transactionHash, page.after.bundleIndex], page.order);
  q = q.groupBy(key);
  if (filter.entryPoint !== undefined) q = q.havingRaw('sum(case when entry_point = ? then 1 else 0 end) > 0', [filter.entryPoint]);
  const rows = asRows(
    await q
      .orderBy(
        orderBy(
          [
            ['block_number', 'desc'],
            ['transaction_hash', 'desc'],
            ['bundle_index', 'desc'],
          ],
          page.order,
        ),
      )
      .limit(n),
  );
  return rows.map((r) => ({
    transactionHash: hash(r, 'transaction_hash'),
    bundleIndex: num(r, 'bundle_index'),
    blockNumber: num(r, 'block_number'),
    timestamp: num(r, 'timestamp'),
    bundler: address(r, 'bundler'),
    totalOps: num(r, 'total_ops'),
  }));
}
