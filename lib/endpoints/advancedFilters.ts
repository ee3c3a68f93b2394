/**
 * GET /advanced-filters — one merged, keyset-paged stream of transactions, internal
 * transactions and token transfers (each ERC-1155 batch entry its own item), filtered by
 * type, method, age, addresses, amount and token (lib/advanced). The filter parameters are
 * free strings read as Blockscout reads them (what cannot be read is dropped); only the paging
 * keys are validated. All five paging keys must be present, else the first page is returned.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Hex } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';
import { POPULAR_METHODS, parseAdvancedFilter } from '../advanced/filter.ts';
import type { ItemKey } from '../advanced/stream.ts';
import { listAdvancedFilter } from '../advanced/stream.ts';
import { anyString, integerStringOrNull, nonNegativeIntegerString } from '../params/codecs.ts';
import { itemsCount, pageSize } from '../paging/page.ts';
import { advancedRefs, parentTransactions, renderAdvancedRows } from '../render/advanced.ts';
import { loadContext } from '../render/context.ts';
import type { AbiIndex } from '../decode/abiIndex.ts';
import { knownMethodName } from '../render/decode.ts';
import { renderToken } from '../render/token.ts';
import type { TokenJson } from '../render/token.ts';
import { AdvancedFilterPage } from '../schema/advanced.ts';
import { defineEndpoint } from './endpoint.ts';

const small = (v: bigint | null | undefined): number | null =>
  v === null || v === undefined ? null : v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : v < 0n ? -1 : Number(v);

/** The position after which the page starts, from the five paging keys (all needed). */
export function startOf(q: {
  readonly block_number?: number;
  readonly transaction_index?: number;
  readonly internal_transaction_index?: bigint | null;
  readonly token_transfer_index?: bigint | null;
  readonly token_transfer_batch_index?: bigint | null;
}): ItemKey | null {
  if (
    q.block_number === undefined ||
    q.transaction_index === undefined ||
    q.internal_transaction_index === undefined ||
    q.token_transfer_index === undefined ||
    q.token_transfer_batch_index === undefined
  ) {
    return null;
  }
  const it = small(q.internal_transaction_index);
  const tt = small(q.token_transfer_index);
  if (it !== null) return [q.block_number, q.transaction_index, 0, it, 0];
  if (tt !== null) return [q.block_number, q.transaction_index, 1, tt, small(q.token_transfer_batch_index) ?? 1];
  return [q.block_number, q.transaction_index, 2, 0, 0];
}

/** The paging keys of a position. */
export function pagingParams(k: ItemKey): JsonObject {
  return {
    block_number: k[0],
    transaction_index: k[1],
    internal_transaction_index: k[2] === 0 ? k[3] : null,
    token_transfer_index: k[2] === 1 ? k[3] : null,
    token_transfer_batch_index: k[2] === 1 ? k[4] : null,
  };
}

/** Names of the requested selectors: the popular list, else the ABIs scoutkit decodes; unknown ones are left out. */
function methodNames(methods: readonly Hex[], abis: AbiIndex | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of methods) {
    const popular = POPULAR_METHODS.find((p) => p.method_id === m);
    if (popular !== undefined) out[m] = popular.name;
    else {
      const name = knownMethodName(m, abis);
      if (name !== null) out[m] = name;
    }
  }
  return out;
}

/** Filter parameters: free strings (nullable in the official documents). */
export const ADVANCED_FILTER_QUERY = {
  transaction_types: anyString,
  methods: anyString,
  methods_names: anyString,
  age_from: anyString,
  age_to: anyString,
  from_address_hashes_to_include: anyString,
  from_address_hashes_to_exclude: anyString,
  to_address_hashes_to_include: anyString,
  to_address_hashes_to_exclude: anyString,
  address_relation: anyString,
  amount_from: anyString,
  amount_to: anyString,
  token_contract_address_hashes_to_include: anyString,
  token_contract_address_hashes_to_exclude: anyString,
  // declared by the official documents, ignored by Blockscout
  token_contract_symbols_to_include: anyString,
  token_contract_symbols_to_exclude: anyString,
} as const;

/** The paging position keys (all five, or the first page); also accepted by the CSV export. */
export const ADVANCED_FILTER_POSITION = {
  block_number: nonNegativeIntegerString,
  transaction_index: nonNegativeIntegerString,
  internal_transaction_index: integerStringOrNull,
  token_transfer_index: integerStringOrNull,
  token_transfer_batch_index: integerStringOrNull,
} as const;

export const advancedFilters = defineEndpoint({
  route: '/advanced-filters',
  summary: 'Transactions, internal transactions and token transfers matching the advanced filter, merged in one keyset-paged list',
  path: {},
  query: {
    ...ADVANCED_FILTER_QUERY,
    ...ADVANCED_FILTER_POSITION,
    items_count: itemsCount,
  },
  response: AdvancedFilterPage,
  handler:
    ({ ds, render }) =>
    ({ query }) =>
    async () => {
      const size = pageSize(query);
      const filter = parseAdvancedFilter(query);
      const page = await listAdvancedFilter(ds, filter, startOf(query), size);
      const refs = advancedRefs(page.rows);
      const [parents, ctx] = await Promise.all([
        parentTransactions(ds, page.rows),
        loadContext(ds, { ...refs, tokens: [...(refs.tokens ?? []), ...filter.namedTokens] }, render),
      ]);
      const tokens: Record<string, TokenJson> = {};
      for (const a of filter.namedTokens) {
        const token = ctx.tokens.get(a);
        if (token !== undefined) tokens[a] = renderToken(token);
      }
      return E.right({
        items: renderAdvancedRows(page.rows, parents, ctx),
        search_params: { methods: methodNames(filter.methods, render.abis), tokens },
        next_page_params: page.next === null ? null : { ...pagingParams(page.next), items_count: size },
      });
    },
});
