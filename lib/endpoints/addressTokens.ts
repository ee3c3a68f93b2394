/**
 * GET /addresses/{address_hash_param}/tokens — current token balances with value > 0,
 * (value DESC, token address DESC, token id DESC); `type` filter.
 * Without a price feed every fiat value is null, so Blockscout's leading `fiat_balance` sort
 * key is constant and omitted; `fiat_value` and `id` are accepted for compatibility.
 */
import * as E from 'fp-ts/lib/Either.js';
import { addressHash, anyString, floatStringOrNull, integer, integerStringOrNull, tokenTypeList } from '../params/codecs.ts';
import { itemsCount } from '../paging/page.ts';
import type { TokenBalanceCursor } from '../ports.ts';
import { defineEndpoint } from './endpoint.ts';
import { tokenBalancePage } from './tokenBalances.ts';
import { TokenBalance } from '../schema/holdings.ts';
import { page } from '../schema/page.ts';
import { BELOW_EVERY_ADDRESS } from '../domain/hex.ts';

export const addressTokens = defineEndpoint({
  route: '/addresses/{address_hash_param}/tokens',
  summary: 'Token balances of an address (value > 0)',
  path: { address_hash_param: addressHash },
  query: {
    type: tokenTypeList,
    fiat_value: floatStringOrNull,
    id: integer(),
    value: integerStringOrNull,
    items_count: itemsCount,
    token_name: anyString,
    token_type: anyString,
    token_contract_address_hash: addressHash,
    token_id: integerStringOrNull,
  },
  response: page(TokenBalance),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () => {
      let after: TokenBalanceCursor | null = null;
      if (query.value !== undefined && query.value !== null) {
        after =
          query.token_contract_address_hash === undefined
            ? // a value-only cursor (e.g. Blockscout's): continue below that value
              { value: query.value, tokenAddress: BELOW_EVERY_ADDRESS, tokenId: null }
            : { value: query.value, tokenAddress: query.token_contract_address_hash, tokenId: query.token_id ?? null };
      }
      const types = query.type !== undefined && query.type.length > 0 ? query.type : undefined;
      return E.right(await tokenBalancePage(ds, { holder: path.address_hash_param, ...(types ? { types } : {}) }, after, query, render));
    },
});
