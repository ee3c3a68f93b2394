/**
 * GET /search/check-redirect — whether a query names one entity page: an address hash (with
 * or without 0x; known or not) → the address, checksummed; a 32-byte hash → the transaction,
 * else the block (any consensus), else the user operation (a store without the user-operation
 * queries has none); a number up to the highest indexed block → the consensus block's hash.
 * Otherwise `{redirect: false, type: null, parameter: null}`.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { anyString } from '../params/codecs.ts';
import type { DataSource } from '../ports.ts';
import { checksum } from '../render/format.ts';
import { SearchRedirect } from '../schema/search.ts';
import { redirectTarget } from '../search/classify.ts';
import { defineEndpoint } from './endpoint.ts';

type Redirect = t.OutputOf<typeof SearchRedirect>;

const NONE: Redirect = { redirect: false, type: null, parameter: null };
const to = (type: NonNullable<Redirect['type']>, parameter: string): Redirect => ({ redirect: true, type, parameter });

async function redirectOf(ds: DataSource, q: string | undefined): Promise<Redirect> {
  const target = redirectTarget(q);
  switch (target.kind) {
    case 'address':
      return to('address', checksum(target.address));
    case 'hash': {
      if ((await ds.getTransaction(target.hash)) !== null) return to('transaction', target.hash);
      if ((await ds.getBlock({ hash: target.hash })) !== null) return to('block', target.hash);
      const op = ds.getUserOperation === undefined ? null : await ds.getUserOperation(target.hash);
      return op !== null ? to('user_operation', target.hash) : NONE;
    }
    case 'number': {
      const highest = await ds.getHighestBlockNumber();
      if (highest === null || target.number > highest) return NONE;
      const block = await ds.getBlock({ number: target.number });
      return block !== null && block.consensus ? to('block', block.hash) : NONE;
    }
    default:
      return NONE;
  }
}

export const searchCheckRedirect = defineEndpoint({
  route: '/search/check-redirect',
  summary: 'Whether a search query names one entity page',
  path: {},
  query: { q: anyString },
  response: SearchRedirect,
  handler:
    ({ ds }) =>
    ({ query }) =>
    async () =>
      E.right(await redirectOf(ds, query.q)),
});
