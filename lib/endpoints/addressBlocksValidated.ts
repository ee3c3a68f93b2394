/** GET /addresses/{address_hash_param}/blocks-validated — blocks mined by the address. */
import * as E from 'fp-ts/lib/Either.js';
import { addressHash, integer } from '../params/codecs.ts';
import { itemsCount } from '../paging/page.ts';
import { blockPage } from './blocks.ts';
import { defineEndpoint } from './endpoint.ts';
import { Block } from '../schema/block.ts';
import { page } from '../schema/page.ts';

export const addressBlocksValidated = defineEndpoint({
  route: '/addresses/{address_hash_param}/blocks-validated',
  summary: 'Blocks mined by an address',
  path: { address_hash_param: addressHash },
  query: { block_number: integer({ min: 0 }), items_count: itemsCount },
  response: page(Block),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () =>
      E.right(await blockPage(ds, { kind: 'block', miner: path.address_hash_param }, query, render)),
});
