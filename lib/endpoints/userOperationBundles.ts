/**
 * GET /proxy/account-abstraction/bundles — bundles of user operations (one `handleOps` /
 * `handleAggregatedOps` call: a transaction and its bundle_index) of consensus blocks, with
 * their operation counts, (block DESC, transaction hash DESC, bundle_index DESC); filters
 * `bundler`, `entry_point` (a bundle matches when any of its operations does); page token
 * `"<block>,<transaction hash>,<bundle_index>"` of the next page's first bundle (inclusive).
 * A store without user operations: an empty page.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Hash } from '../domain/records.ts';
import { addressHash } from '../params/codecs.ts';
import type { UserOperationBundleCursor } from '../ports.ts';
import { loadContext } from '../render/context.ts';
import { renderAddress } from '../render/address.ts';
import { iso } from '../render/format.ts';
import { Bundle, servicePage } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { DEFAULT_PAGE_SIZE, nextPageParams, parseToken, SERVICE_PAGE_QUERY } from './userOperationPage.ts';

/** the cursor whose strict "past" starts at the token's bundle itself */
function inclusiveCursor(block: number, transactionHash: Hash, bundleIndex: number): UserOperationBundleCursor {
  return { blockNumber: block, transactionHash, bundleIndex: bundleIndex + 1 };
}

export const userOperationBundles = defineEndpoint({
  route: '/proxy/account-abstraction/bundles',
  summary: 'Bundles of ERC-4337 user operations with their operation counts, newest first',
  path: {},
  query: { bundler: addressHash, entry_point: addressHash, ...SERVICE_PAGE_QUERY },
  response: servicePage(Bundle),
  handler:
    ({ ds, render }) =>
    ({ query: q }) =>
    async () => {
      const size = q.page_size ?? DEFAULT_PAGE_SIZE;
      let after: UserOperationBundleCursor | null = null;
      if (q.page_token !== undefined) {
        const parsed = parseToken(q.page_token, ['integer', 'hash', 'integer']);
        if ('error' in parsed) return E.left(parsed.error);
        after = inclusiveCursor(Number(parsed.ok[0]), parsed.ok[1] as Hash, Number(parsed.ok[2]));
      }
      if (ds.listUserOperationBundles === undefined) return E.right({ items: [], next_page_params: null });
      const filter = { ...(q.bundler === undefined ? {} : { bundler: q.bundler }), ...(q.entry_point === undefined ? {} : { entryPoint: q.entry_point }) };
      const rows = await ds.listUserOperationBundles(filter, { after, limit: size + 1, order: 'desc' });
      const page = rows.slice(0, size);
      const next = rows[size];
      const ctx = await loadContext(ds, { addresses: page.map((b) => b.bundler) }, render);
      return E.right({
        items: page.map((b) => ({
          transaction_hash: b.transactionHash,
          bundler: renderAddress(b.bundler, ctx),
          block_number: String(b.blockNumber),
          bundle_index: b.bundleIndex,
          timestamp: iso(b.timestamp),
          total_ops: b.totalOps,
        })),
        next_page_params: nextPageParams(next === undefined ? null : `${next.blockNumber},${next.transactionHash},${next.bundleIndex}`, size),
      });
    },
});
