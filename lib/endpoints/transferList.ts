/** Rendering a page of token transfers — shared by the three transfer lists. */
import type { JsonObject } from '../json.ts';
import { echo, listBody, pageSize } from '../paging/page.ts';
import type { ListBody } from '../paging/page.ts';
import type { TransferPagingQuery } from '../paging/transfers.ts';
import { pageTransfers } from '../paging/transfers.ts';
import type { DataSource, TokenTransferFilter } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { renderTransfer, transferRefs } from '../render/transfer.ts';
import type { TransferJson } from '../render/transfer.ts';

export async function transferListBody(
  ds: DataSource,
  filter: TokenTransferFilter,
  q: TransferPagingQuery & { readonly items_count?: number; readonly limit?: number },
  rawQuery: Readonly<Record<string, string>>,
  render: RenderOptions,
  extra: JsonObject = {},
): Promise<ListBody<TransferJson>> {
  const { items, next } = await pageTransfers(ds, filter, q, pageSize(q));
  const ctx = await loadContext(ds, transferRefs(items), render);
  // items_count is echoed only when sent, as Blockscout does on transfer lists
  return listBody(
    items.map((i) => renderTransfer(i, ctx)),
    next === null ? null : { ...echo(rawQuery, ['items_count']), ...next, ...extra },
  );
}
