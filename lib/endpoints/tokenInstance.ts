/**
 * GET /tokens/{address_hash_param}/instances/{token_id_param} — one NFT instance with its
 * owner resolved (when unique), metadata and media URLs. 404 when the token is unknown or
 * ERC-20, or when no instance row exists for the id.
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash, integerString } from '../params/codecs.ts';
import { loadContext } from '../render/context.ts';
import { renderInstance } from '../render/instance.ts';
import { TokenInstance } from '../schema/instance.ts';
import { defineEndpoint } from './endpoint.ts';

export const tokenInstance = defineEndpoint({
  route: '/tokens/{address_hash_param}/instances/{token_id_param}',
  summary: 'One NFT instance',
  path: { address_hash_param: addressHash, token_id_param: integerString },
  query: {},
  response: TokenInstance,
  handler:
    ({ ds, render }) =>
    ({ path }) =>
    async () => {
      const token = await ds.getToken(path.address_hash_param);
      if (token === null || token.type === 'ERC-20') return E.left(notFound);
      const [instance] = await ds.getTokenInstances([{ tokenAddress: token.address, tokenId: path.token_id_param }]);
      if (instance === undefined) return E.left(notFound);
      const ctx = await loadContext(ds, { addresses: [instance.owner] }, render);
      return E.right(renderInstance(instance, ctx, { token, withOwner: true }));
    },
});
