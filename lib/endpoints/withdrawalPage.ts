/**
 * One page of a withdrawal list (index DESC, keyset `index < I`), rendered in the list's
 * shape; `next_page_params` `{index, items_count}` as Blockscout. Shared by /withdrawals,
 * /blocks/{h}/withdrawals and /addresses/{h}/withdrawals.
 */
import type { WithdrawalRecord } from '../domain/records.ts';
import { listBody, pageSize, splitPage } from '../paging/page.ts';
import type { ListBody } from '../paging/page.ts';
import type { DataSource, WithdrawalFilter } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import type { WithdrawalJson, WithdrawalShape } from '../render/withdrawal.ts';
import { renderWithdrawal } from '../render/withdrawal.ts';

export interface WithdrawalPageQuery {
  readonly index?: number;
  readonly items_count?: number;
}

export async function withdrawalPage<S extends WithdrawalShape>(
  ds: DataSource,
  render: RenderOptions,
  filter: WithdrawalFilter,
  query: WithdrawalPageQuery,
  shape: S,
): Promise<ListBody<WithdrawalJson[S]>> {
  const size = pageSize(query);
  const after = query.index === undefined ? null : { index: query.index };
  const probe = await ds.listWithdrawals(filter, { after, limit: size + 1, order: 'desc' });
  const { rows, last } = splitPage<WithdrawalRecord>(probe, size);
  // the address list names no receiver: no address lookups
  const ctx = await loadContext(ds, { addresses: shape === 'address' ? [] : rows.map((w) => w.address) }, render);
  return listBody(
    rows.map((w) => renderWithdrawal(w, shape, ctx)),
    last === null ? null : { index: last.index, items_count: size },
  );
}

/**
 * How many withdrawals a consensus block holds: a walk of that block's rows on the block's
 * index (a block holds few: 16 at most on Ethereum), so the cost is the block's, not the chain's.
 */
export async function blockWithdrawalsCount(ds: DataSource, blockNumber: number): Promise<number> {
  const limit = 1000;
  let count = 0;
  let after: { readonly index: number } | null = null;
  for (;;) {
    const rows = await ds.listWithdrawals({ blocks: { from: blockNumber, to: blockNumber } }, { after, limit, order: 'desc' });
    count += rows.length;
    const last = rows[rows.length - 1];
    if (rows.length < limit || last === undefined) return count;
    after = { index: last.index };
  }
}
