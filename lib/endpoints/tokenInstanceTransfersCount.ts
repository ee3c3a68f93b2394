/**
 * GET /tokens/{address_hash_param}/instances/{token_id_param}/transfers-count — how many
 * transfers carry the id (a batch once), a JSON number. 404 for an unknown or ERC-20 token; an
 * id without an instance row counts 0 (as Blockscout: no instance check).
 */
import * as E from 'fp-ts/lib/Either.js';
import { notFound } from '../errors.ts';
import { addressHash, integerString } from '../params/codecs.ts';
import { TokenInstanceTransfersCount } from '../schema/tokenCounters.ts';
import { defineEndpoint } from './endpoint.ts';

export const tokenInstanceTransfersCount = defineEndpoint({
  route: '/tokens/{address_hash_param}/instances/{token_id_param}/transfers-count',
  summary: 'How many transfers one NFT instance has',
  path: { address_hash_param: addressHash, token_id_param: integerString },
  query: {},
  response: TokenInstanceTransfersCount,
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () => {
      const token = await ds.getToken(path.address_hash_param);
      if (token === null || token.type === 'ERC-20') return E.left(notFound);
      return E.right({ transfers_count: await ds.countTokenTransfers({ tokenAddress: token.address, tokenId: path.token_id_param }) });
    },
});
