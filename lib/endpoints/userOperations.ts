/**
 * GET /proxy/account-abstraction/operations — ERC-4337 user operations of consensus blocks,
 * (block_number DESC, hash DESC), with Blockscout's filters (every given one must match;
 * `bundle_index` only with `transaction_hash`, as its service applies it) and its page token:
 * `"<block>,<op hash>"` of the first operation of the next page, applied inclusively, in
 * `next_page_params` `{page_token, page_size}`. A store without user operations: an empty page.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Hash } from '../domain/records.ts';
import { addressHash, fullHash, integer } from '../params/codecs.ts';
import type { UserOperationCursor, UserOperationFilter } from '../ports.ts';
import { loadContext } from '../render/context.ts';
import { renderUserOperationInList } from '../render/userOperation.ts';
import { UserOperationInList, servicePage } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { DEFAULT_PAGE_SIZE, nextPageParams, parseToken, SERVICE_PAGE_QUERY } from './userOperationPage.ts';

const MAX_HASH = (1n << 256n) - 1n;

/** the cursor whose strict "past" starts at (block, hash) itself: the token is inclusive */
function inclusiveCursor(block: number, hash: Hash): UserOperationCursor {
  const n = BigInt(hash);
  if (n === MAX_HASH) return { blockNumber: block + 1, hash: `0x${'0'.repeat(64)}` as Hash };
  return { blockNumber: block, hash: `0x${(n + 1n).toString(16).padStart(64, '0')}` as Hash };
}

export const userOperations = defineEndpoint({
  route: '/proxy/account-abstraction/operations',
  summary: 'ERC-4337 user operations, newest first, by sender, bundler, paymaster, factory, transaction, EntryPoint, bundle or block',
  path: {},
  query: {
    sender: addressHash,
    bundler: addressHash,
    paymaster: addressHash,
    factory: addressHash,
    transaction_hash: fullHash,
    entry_point: addressHash,
    bundle_index: integer({ min: 0 }),
    block_number: integer({ min: 0 }),
    ...SERVICE_PAGE_QUERY,
  },
  response: servicePage(UserOperationInList),
  handler:
    ({ ds, render }) =>
    ({ query: q }) =>
    async () => {
      const size = q.page_size ?? DEFAULT_PAGE_SIZE;
      let after: UserOperationCursor | null = null;
      if (q.page_token !== undefined) {
        const parsed = parseToken(q.page_token, ['integer', 'hash']);
        if ('error' in parsed) return E.left(parsed.error);
        after = inclusiveCursor(Number(parsed.ok[0]), parsed.ok[1] as Hash);
      }
      if (ds.listUserOperations === undefined) return E.right({ items: [], next_page_params: null });
      const filter: UserOperationFilter = {
        ...(q.sender === undefined ? {} : { sender: q.sender }),
        ...(q.bundler === undefined ? {} : { bundler: q.bundler }),
        ...(q.paymaster === undefined ? {} : { paymaster: q.paymaster }),
        ...(q.factory === undefined ? {} : { factory: q.factory }),
        ...(q.entry_point === undefined ? {} : { entryPoint: q.entry_point }),
        ...(q.transaction_hash === undefined ? {} : { transactionHash: q.transaction_hash }),
        ...(q.transaction_hash === undefined || q.bundle_index === undefined ? {} : { bundleIndex: q.bundle_index }),
        ...(q.block_number === undefined ? {} : { blockNumber: q.block_number }),
      };
      const rows = await ds.listUserOperations(filter, { after, limit: size + 1, order: 'desc' });
      const page = rows.slice(0, size);
      const next = rows[size];
      const ctx = await loadContext(ds, { addresses: page.flatMap((o) => [o.sender, o.entryPoint]) }, render);
      return E.right({
        items: page.map((o) => renderUserOperationInList(o, ctx)),
        next_page_params: nextPageParams(next === undefined ? null : `${next.blockNumber},${next.hash}`, size),
      });
    },
});
