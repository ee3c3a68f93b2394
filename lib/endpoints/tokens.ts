/**
 * GET /tokens/ (also /tokens) — every token by holders count DESC, then name ASC (null names
 * last), then address ASC: Blockscout's default order with no market data (market cap and fiat
 * value are null for every token). `q`: an address hash → that token only; text with a letter
 * or digit → tokens whose name or symbol starts with it (ASCII case-insensitive); otherwise no
 * filter. `type`: token types. `sort=holders_count&order=asc` lists the exact reverse; other
 * sorts keep the default order (their columns are null for every token).
 * The cursor is Blockscout's: contract_address_hash, holders_count, is_name_null, name,
 * market_cap (and fiat_value); it takes effect only when all of the first five are sent.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { TokenRecord } from '../domain/records.ts';
import { addressHash, anyString, boolean, enumOf, floatStringOrNull, integer, integerStringOrNull, tokenTypeList } from '../params/codecs.ts';
import { echo, itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { Order, TokenListCursor } from '../ports.ts';
import { renderToken } from '../render/token.ts';
import { page } from '../schema/page.ts';
import { Token } from '../schema/token.ts';
import { defineEndpoint } from './endpoint.ts';

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

export const tokens = defineEndpoint({
  route: '/tokens/',
  summary: 'Every token, by holders count',
  path: {},
  query: {
    type: tokenTypeList,
    q: anyString,
    limit: integer(),
    sort: enumOf(['fiat_value', 'holders_count', 'circulating_market_cap'] as const),
    order: enumOf(['asc', 'desc'] as const),
    contract_address_hash: addressHash,
    fiat_value: floatStringOrNull,
    holders_count: integerStringOrNull,
    is_name_null: boolean,
    market_cap: floatStringOrNull,
    name: anyString,
    items_count: itemsCount,
  },
  response: page(Token),
  handler:
    ({ ds }) =>
    ({ query, rawQuery }) =>
    async () => {
      const size = pageSize(query);
      const types = query.type ?? [];
      const order: Order = query.sort === 'holders_count' && query.order === 'asc' ? 'asc' : 'desc';
      const q = (query.q ?? '').trim();
      let after: TokenListCursor | null = null;
      const { contract_address_hash: address, holders_count: holders, is_name_null: nameNull } = query;
      if (address !== undefined && holders !== undefined && nameNull !== undefined && query.name !== undefined && query.market_cap !== undefined) {
        // a NULL holders count sorts after every count (none is NULL here): nothing follows
        if (holders === null) return E.right(listBody([], null));
        after = { holdersCount: holders, name: nameNull ? null : query.name, address };
      }
      let rows: readonly TokenRecord[];
      if (ADDRESS_RE.test(q)) {
        const found = await ds.getToken(q.toLowerCase() as TokenRecord['address']);
        rows = found === null || (types.length > 0 && !types.includes(found.type)) || after !== null ? [] : [found];
      } else {
        const prefix = /[A-Za-z0-9]/.test(q) ? q : '';
        rows = await ds.listTokens({ prefix, types }, { after, limit: size + 1, order });
      }
      const { rows: shown, last } = splitPage(rows, size);
      const next =
        last === null
          ? null
          : {
              contract_address_hash: last.address,
              fiat_value: null,
              holders_count: Number(last.holdersCount),
              is_name_null: last.name === null,
              items_count: size,
              market_cap: null,
              name: last.name,
              ...echo(rawQuery, ['sort', 'order', 'q']),
            };
      return E.right(listBody(shown.map(renderToken), next));
    },
});
