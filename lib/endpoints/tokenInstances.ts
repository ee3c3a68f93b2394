/**
 * GET /tokens/{address_hash_param}/instances — NFT instances, token id DESC; optional
 * `holder_address_hash`. The cursor `unique_token` is an exact JSON number (ids exceed 2^53).
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash, integerStringOrNull } from '../params/codecs.ts';
import { echo, itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { HeldTokenInstance } from '../ports.ts';
import { renderAddress } from '../render/address.ts';
import { loadContext } from '../render/context.ts';
import { renderInstance } from '../render/instance.ts';
import { defineEndpoint } from './endpoint.ts';
import { TokenInstanceListItem, TokenInstanceListItemMultichain } from '../schema/instance.ts';
import { page } from '../schema/page.ts';

export const tokenInstances = defineEndpoint({
  route: '/tokens/{address_hash_param}/instances',
  summary: "A token's NFT instances, or those of one holder",
  path: { address_hash_param: addressHash },
  query: { holder_address_hash: addressHash, unique_token: integerStringOrNull, items_count: itemsCount },
  response: page(TokenInstanceListItem),
  multichainResponse: page(TokenInstanceListItemMultichain),
  handler:
    ({ ds, render, form }) =>
    ({ path, query, rawQuery }) =>
    async () => {
      const token = await ds.getToken(path.address_hash_param);
      if (token === null) return E.left(notFound);
      const holder = query.holder_address_hash;
      if (holder !== undefined && token.type === 'ERC-20') return E.left(notFound);
      const size = pageSize(query);
      const after = query.unique_token === undefined || query.unique_token === null ? null : { tokenId: query.unique_token };
      const probe = await ds.listTokenInstances(
        { tokenAddress: token.address, ...(holder === undefined ? {} : { holder }) },
        { after, limit: size + 1, order: 'desc' },
      );
      const { rows, last } = splitPage<HeldTokenInstance>(probe, size);
      const ctx = await loadContext(ds, { addresses: rows.map((r) => (holder ?? r.instance.owner) ?? null) }, render);
      const items = rows.map(({ instance, value }) => {
        // the Pro API's instance list items carry no embedded token
        const base = renderInstance(instance, ctx, { token: form === 'multichain' ? 'omit' : token, withOwner: true });
        if (holder === undefined) return base;
        // with a holder: the holder is the owner, plus token_type and value
        return { ...base, owner: base['owner'] ?? renderAddress(holder, ctx), token_type: token.type, value: (value ?? 0n).toString() };
      });
      return E.right(
        listBody(
          items,
          last === null ? null : { ...echo(rawQuery, ['holder_address_hash', 'items_count']), unique_token: last.instance.tokenId },
        ),
      );
    },
});
