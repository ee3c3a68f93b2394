/**
 * The holders lists (`/tokens/{h}/holders`, `/tokens/{h}/instances/{id}/holders`): current
 * balances by value DESC, holder DESC, then token id DESC (ERC-1155/404 list one row per id).
 * The cursor is `value` + `address_hash`, plus `token_id` where the last row has one, so rows
 * that tie on value and holder are neither skipped nor repeated. A `value` without
 * `address_hash` continues below that value.
 */
import type * as t from 'io-ts';
import { addressHash, integerStringOrNull } from '../params/codecs.ts';
import { itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { ListBody } from '../paging/page.ts';
import type { Address } from '../domain/records.ts';
import type { DataSource, TokenHolderCursor, TokenHolderFilter } from '../ports.ts';
import { renderAddress } from '../render/address.ts';
import type { RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import type { TokenHolder } from '../schema/holder.ts';
import { BELOW_EVERY_ADDRESS } from '../domain/hex.ts';

export const holderQuery = { address_hash: addressHash, value: integerStringOrNull, token_id: integerStringOrNull, items_count: itemsCount };

interface HolderQuery {
  readonly address_hash?: Address;
  readonly value?: bigint | null;
  readonly token_id?: bigint | null;
  readonly items_count?: number;
}

export async function holderListBody(ds: DataSource, filter: TokenHolderFilter, query: HolderQuery, render: RenderOptions): Promise<ListBody<t.OutputOf<typeof TokenHolder>>> {
  const size = pageSize(query);
  let after: TokenHolderCursor | null = null;
  if (query.value !== undefined && query.value !== null) {
    after =
      query.address_hash === undefined
        ? { value: query.value, holder: BELOW_EVERY_ADDRESS, tokenId: null }
        : { value: query.value, holder: query.address_hash, tokenId: query.token_id ?? null };
  }
  const { rows, last } = splitPage(await ds.listTokenHolders(filter, { after, limit: size + 1, order: 'desc' }), size);
  const ctx = await loadContext(ds, { addresses: rows.map((r) => r.holder) }, render);
  const items = rows.map((b) => ({
    address: renderAddress(b.holder, ctx),
    token_id: b.tokenId === null ? null : b.tokenId.toString(),
    value: b.value.toString(),
  }));
  const next =
    last === null
      ? null
      : {
          address_hash: last.holder,
          items_count: size,
          value: last.value.toString(),
          ...(last.tokenId === null ? {} : { token_id: last.tokenId.toString() }),
        };
  return listBody(items, next);
}
