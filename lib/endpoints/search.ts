/**
 * GET /search — the unified search (lib/search/): on the first page the exact matches of an
 * address or hash, or the blocks of a number; then tokens (priority 2) and named contracts
 * (priority 0) whose name (or symbol) starts with `q`. Pages of `items_count` (default 50)
 * items; next_page_params is Blockscout's flat object of bracket keys (all values strings or
 * null): `next_page_params_type`, `q`, and one key group per text category with the last item
 * of that category shown so far — `token[...]`, `contract[...]` — each a keyset cursor, so a
 * walk lists every result exactly once. A group missing from the request starts its category
 * from the beginning.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { JsonObject } from '../json.ts';
import { addressHash, anyString, boolean, ignoredObject, integerStringOrNull } from '../params/codecs.ts';
import { echo, itemsCount, listBody, pageSize } from '../paging/page.ts';
import type { AddressListCursor, TokenListCursor } from '../ports.ts';
import { SearchPage } from '../schema/search.ts';
import { classify } from '../search/classify.ts';
import { searchPage } from '../search/search.ts';
import { defineEndpoint } from './endpoint.ts';

/** Paging objects the official documents declare (sent as plain values they carry nothing we read). */
const DECLARED_OBJECTS = ['label', 'token', 'contract', 'tac_operation', 'metadata_tag', 'block', 'blob', 'user_operation', 'address', 'ens_domain'] as const;
/** Blockscout's key groups of categories scoutkit does not search (accepted, ignored). */
const IGNORED_KEYS = [
  'token[circulating_market_cap]',
  'token[fiat_value]',
  'token[is_verified_via_admin_panel]',
  'token[inserted_at]',
  'contract[certified]',
  'contract[inserted_at]',
  'label[name]',
  'label[inserted_at]',
] as const;

const query = {
  q: anyString,
  next_page_params_type: anyString,
  'token[holder_count]': integerStringOrNull,
  'token[name]': anyString,
  'token[is_name_null]': boolean,
  'token[address_hash]': addressHash,
  'contract[name]': anyString,
  'contract[address_hash]': addressHash,
  ...Object.fromEntries(DECLARED_OBJECTS.map((k) => [k, ignoredObject])),
  ...Object.fromEntries(IGNORED_KEYS.map((k) => [k, anyString])),
  items_count: itemsCount,
};

function tokenGroup(c: TokenListCursor): JsonObject {
  return {
    'token[address_hash]': c.address,
    'token[circulating_market_cap]': null,
    'token[fiat_value]': null,
    'token[holder_count]': c.holdersCount.toString(),
    'token[is_name_null]': String(c.name === null),
    'token[is_verified_via_admin_panel]': 'false',
    'token[name]': c.name,
  };
}

function contractGroup(c: AddressListCursor): JsonObject {
  return { 'contract[address_hash]': c.hash, 'contract[certified]': null, 'contract[name]': c.name };
}

export const search = defineEndpoint({
  route: '/search',
  summary: 'Search tokens, contracts, addresses, blocks and transactions',
  path: {},
  query,
  response: SearchPage,
  handler:
    ({ ds }) =>
    ({ query: qy, rawQuery }) =>
    async () => {
      const size = pageSize(qy);
      const holders = qy['token[holder_count]'];
      const tokenAddress = qy['token[address_hash]'];
      const token: TokenListCursor | null =
        holders === undefined || holders === null || tokenAddress === undefined
          ? null
          : { holdersCount: holders, name: qy['token[is_name_null]'] === true ? null : (qy['token[name]'] ?? null), address: tokenAddress };
      const contractName = qy['contract[name]'];
      const contractAddress = qy['contract[address_hash]'];
      const contract: AddressListCursor | null =
        contractName === undefined || contractAddress === undefined ? null : { name: contractName, hash: contractAddress };
      const first = qy.next_page_params_type === undefined && token === null && contract === null;
      const s = classify(qy.q);
      const result = await searchPage(ds, s, { token, contract }, first, size);
      if (!result.more) return E.right(listBody(result.items, null));
      const lastToken = result.last.token ?? token;
      const lastContract = result.last.contract ?? contract;
      return E.right(
        listBody(result.items, {
          next_page_params_type: 'search',
          q: qy.q ?? '',
          ...(lastToken === null ? {} : tokenGroup(lastToken)),
          ...(lastContract === null ? {} : contractGroup(lastContract)),
          ...echo(rawQuery, ['items_count']),
        }),
      );
    },
});
