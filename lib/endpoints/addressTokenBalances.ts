/** GET /addresses/{address_hash_param}/token-balances — every current balance, a bare array. */
import * as E from 'fp-ts/lib/Either.js';
import { addressHash } from '../params/codecs.ts';
import type { TokenHolding } from '../ports.ts';
import { defineEndpoint } from './endpoint.ts';
import { renderBalances } from './tokenBalances.ts';
import * as t from 'io-ts';
import { TokenBalance } from '../schema/holdings.ts';

const CHUNK = 1000;

export const addressTokenBalances = defineEndpoint({
  route: '/addresses/{address_hash_param}/token-balances',
  summary: 'Every current token balance of an address (a bare array)',
  path: { address_hash_param: addressHash },
  query: {},
  response: t.array(TokenBalance),
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () => {
      const rows: TokenHolding[] = [];
      for (;;) {
        const last = rows[rows.length - 1];
        const batch = await ds.listTokenHoldings(
          { holder: path.address_hash_param },
          { after: last === undefined ? null : { value: last.value, tokenAddress: last.tokenAddress, tokenId: last.tokenId }, limit: CHUNK, order: 'desc' },
        );
        rows.push(...batch);
        if (batch.length < CHUNK) break;
      }
      // Blockscout renders token_instance as null on this endpoint
      return E.right(renderBalances(rows, null));
    },
});
