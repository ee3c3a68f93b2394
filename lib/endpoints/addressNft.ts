/**
 * GET /addresses/{address_hash_param}/nft — the NFT instances an address holds, type by type
 * (ERC-721, ERC-1155, ERC-404), contract ASC, token id DESC, as Blockscout lists them. Only ids
 * with an instance row are listed. Composed from the collections (with their highest held
 * ids) and, where a collection holds more ids than that, the holder's instances of it.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Address, NftTokenType } from '../domain/records.ts';
import { NFT_TOKEN_TYPES, TOKEN_TYPES } from '../domain/records.ts';
import { addressHash, effectiveNftTypes, enumOf, integerStringOrNull, tokenTypeList } from '../params/codecs.ts';
import { itemsCount, listBody, pageSize } from '../paging/page.ts';
import type { DataSource, NftCollectionCursor } from '../ports.ts';
import { instanceKey, loadContext } from '../render/context.ts';
import { renderInstance } from '../render/instance.ts';
import { unknownToken } from '../render/token.ts';
import { AddressNftItem } from '../schema/instance.ts';
import { page } from '../schema/page.ts';
import { defineEndpoint } from './endpoint.ts';

interface Held {
  readonly tokenAddress: Address;
  readonly tokenType: NftTokenType;
  readonly tokenId: bigint;
  readonly value: bigint;
}

/** The holder's instances of one collection below `afterId` (token id DESC). */
async function heldIn(ds: DataSource, holder: Address, tokenAddress: Address, tokenType: NftTokenType, afterId: bigint | null, limit: number): Promise<Held[]> {
  const rows = await ds.listTokenInstances({ tokenAddress, holder }, { after: afterId === null ? null : { tokenId: afterId }, limit, order: 'desc' });
  return rows.map((r) => ({ tokenAddress, tokenType, tokenId: r.instance.tokenId, value: r.value ?? 1n }));
}

/** Up to `want` held instances after the cursor. */
async function readHeld(
  ds: DataSource,
  holder: Address,
  types: readonly NftTokenType[],
  cursor: { readonly collection: NftCollectionCursor; readonly tokenId: bigint } | null,
  want: number,
): Promise<Held[]> {
  const out: Held[] = [];
  let after: NftCollectionCursor | null = null;
  if (cursor !== null) {
    const { tokenAddress, tokenType } = cursor.collection;
    if (types.includes(tokenType)) out.push(...(await heldIn(ds, holder, tokenAddress, tokenType, cursor.tokenId, want)));
    after = cursor.collection;
  }
  while (out.length < want) {
    const collections = await ds.listNftCollections({ holder, types, holdings: want }, { after, limit: want, order: 'asc' });
    const keys = collections.flatMap((c) => c.holdings.map((h) => ({ tokenAddress: c.tokenAddress, tokenId: h.tokenId })));
    const existing = new Set((keys.length === 0 ? [] : await ds.getTokenInstances(keys)).map(instanceKey));
    for (const c of collections) {
      for (const h of c.holdings) {
        if (existing.has(instanceKey({ tokenAddress: c.tokenAddress, tokenId: h.tokenId }))) {
          out.push({ tokenAddress: c.tokenAddress, tokenType: c.tokenType, tokenId: h.tokenId, value: h.value });
        }
      }
      const lowest = c.holdings[c.holdings.length - 1];
      // a collection holding more ids than were carried: read the rest of it
      if (out.length < want && c.holdings.length === want && lowest !== undefined) {
        out.push(...(await heldIn(ds, holder, c.tokenAddress, c.tokenType, lowest.tokenId, want - out.length)));
      }
      if (out.length >= want) break;
    }
    const last = collections[collections.length - 1];
    if (collections.length < want || last === undefined) break;
    after = { tokenType: last.tokenType, tokenAddress: last.tokenAddress };
  }
  return out.slice(0, want);
}

export const addressNft = defineEndpoint({
  route: '/addresses/{address_hash_param}/nft',
  summary: 'NFT instances held by an address, type by type',
  path: { address_hash_param: addressHash },
  query: {
    type: tokenTypeList,
    items_count: itemsCount,
    token_contract_address_hash: addressHash,
    token_id: integerStringOrNull,
    token_type: enumOf(TOKEN_TYPES),
  },
  response: page(AddressNftItem),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () => {
      const size = pageSize(query);
      const { token_contract_address_hash: tokenAddress, token_type: tokenType, token_id: tokenId } = query;
      const cursor =
        tokenAddress !== undefined && tokenType !== undefined && (NFT_TOKEN_TYPES as readonly string[]).includes(tokenType) && tokenId !== undefined && tokenId !== null
          ? { collection: { tokenType: tokenType as NftTokenType, tokenAddress }, tokenId }
          : null;
      const probe = await readHeld(ds, path.address_hash_param, effectiveNftTypes(query.type), cursor, size + 1);
      const rows = probe.slice(0, size);
      const ctx = await loadContext(
        ds,
        { tokens: rows.map((r) => r.tokenAddress), instances: rows.map((r) => ({ tokenAddress: r.tokenAddress, tokenId: r.tokenId })) },
        render,
      );
      const items = rows.flatMap((r) => {
        const instance = ctx.instances.get(instanceKey(r));
        if (instance === undefined) return [];
        const token = ctx.tokens.get(r.tokenAddress) ?? unknownToken(r.tokenAddress, r.tokenType);
        return [{ ...renderInstance(instance, ctx, { token, withOwner: true }), token_type: r.tokenType, value: r.value.toString() }];
      });
      const last = rows[rows.length - 1];
      return E.right(
        listBody(
          items,
          probe.length > size && last !== undefined
            ? { items_count: size, token_contract_address_hash: last.tokenAddress, token_id: last.tokenId.toString(), token_type: last.tokenType }
            : null,
        ),
      );
    },
});
