/**
 * GET /addresses/{address_hash_param}/nft/collections — NFT collections held, type by type
 * (ERC-721, ERC-1155, ERC-404), contract ASC, each with up to 9 instances (token id DESC).
 */
import * as E from 'fp-ts/lib/Either.js';
import type { NftTokenType } from '../domain/records.ts';
import { NFT_TOKEN_TYPES, TOKEN_TYPES } from '../domain/records.ts';
import { addressHash, effectiveNftTypes, enumOf, tokenTypeList } from '../params/codecs.ts';
import { itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { NftCollectionRecord } from '../ports.ts';
import { instanceKey, loadContext } from '../render/context.ts';
import { renderInstance } from '../render/instance.ts';
import { renderToken, unknownToken } from '../render/token.ts';
import { defineEndpoint } from './endpoint.ts';
import { NftCollection } from '../schema/holdings.ts';
import { page } from '../schema/page.ts';

/** Held ids shown per collection (the highest), as Blockscout. */
export const HOLDINGS_SHOWN = 9;

export const addressNftCollections = defineEndpoint({
  route: '/addresses/{address_hash_param}/nft/collections',
  summary: 'NFT collections held by an address, each with up to 9 instances',
  path: { address_hash_param: addressHash },
  query: {
    type: tokenTypeList,
    items_count: itemsCount,
    token_contract_address_hash: addressHash,
    token_type: enumOf(TOKEN_TYPES),
  },
  response: page(NftCollection),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () => {
      const size = pageSize(query);
      const cursorType = query.token_type;
      const after =
        query.token_contract_address_hash !== undefined && cursorType !== undefined && (NFT_TOKEN_TYPES as readonly string[]).includes(cursorType)
          ? { tokenType: cursorType as NftTokenType, tokenAddress: query.token_contract_address_hash }
          : null;
      const probe = await ds.listNftCollections(
        { holder: path.address_hash_param, types: effectiveNftTypes(query.type), holdings: HOLDINGS_SHOWN },
        { after, limit: size + 1, order: 'asc' },
      );
      const { rows, last } = splitPage<NftCollectionRecord>(probe, size);
      const ctx = await loadContext(
        ds,
        {
          tokens: rows.map((c) => c.tokenAddress),
          instances: rows.flatMap((c) => c.holdings.map((h) => ({ tokenAddress: c.tokenAddress, tokenId: h.tokenId }))),
        },
        render,
      );
      const items = rows.map((c) => ({
        amount: c.amount.toString(),
        token: renderToken(ctx.tokens.get(c.tokenAddress) ?? unknownToken(c.tokenAddress, c.tokenType)),
        token_instances: c.holdings.flatMap((h) => {
          const inst = ctx.instances.get(instanceKey({ tokenAddress: c.tokenAddress, tokenId: h.tokenId }));
          if (inst === undefined) return [];
          return [{ ...renderInstance(inst, ctx, { token: null, withOwner: false }), token_type: c.tokenType, value: h.value.toString() }];
        }),
      }));
      return E.right(
        listBody(
          items,
          last === null ? null : { items_count: size, token_contract_address_hash: last.tokenAddress, token_type: last.tokenType },
        ),
      );
    },
});
