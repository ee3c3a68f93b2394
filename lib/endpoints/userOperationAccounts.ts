/**
 * GET /proxy/account-abstraction/accounts — ERC-4337 accounts (the senders of user operations
 * of consensus blocks) in Blockscout's user-ops-indexer `Account` shape, by address ASC as its
 * service lists them: each one's kept operation count and its creation (the factory,
 * transaction, operation and time of its oldest operation carrying a factory; nulls when none
 * does). Filter `factory`: the accounts one of whose operations carries it (as the service
 * filters). Page token `"<checksummed address>"` of the next page's first account (inclusive).
 * A store without user operations: an empty page; one with them but without
 * listUserOperationAccounts: 501, not available from this store.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Address } from '../domain/records.ts';
import { queryUnavailable } from '../errors.ts';
import { addressHash } from '../params/codecs.ts';
import type { UserOperationAccount, UserOperationAccountCursor } from '../ports.ts';
import type { RenderContext } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { renderAddress, renderAddressOrNull } from '../render/address.ts';
import { checksum, iso } from '../render/format.ts';
import { Account, servicePage } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { DEFAULT_PAGE_SIZE, nextPageParams, parseToken, SERVICE_PAGE_QUERY } from './userOperationPage.ts';

const ACCOUNTS = 'ERC-4337 accounts';

/** the cursor whose strict "past" (address ASC) starts at the token's address itself: the token is inclusive */
function inclusiveCursor(address: Address): UserOperationAccountCursor | null {
  const n = BigInt(address);
  return n === 0n ? null : { address: `0x${(n - 1n).toString(16).padStart(40, '0')}` as Address };
}

const renderAccount = (a: UserOperationAccount, ctx: RenderContext) => ({
  address: renderAddress(a.address, ctx),
  factory: renderAddressOrNull(a.creation?.factory ?? null, ctx),
  creation_transaction_hash: a.creation?.transactionHash ?? null,
  creation_op_hash: a.creation?.hash ?? null,
  creation_timestamp: a.creation === null ? null : iso(a.creation.timestamp),
  total_ops: a.totalOps,
});

export const userOperationAccounts = defineEndpoint({
  route: '/proxy/account-abstraction/accounts',
  summary: 'ERC-4337 accounts with their operations and creation, by address, of one factory',
  path: {},
  query: { factory: addressHash, ...SERVICE_PAGE_QUERY },
  response: servicePage(Account),
  mayLack: ACCOUNTS,
  handler:
    ({ ds, render }) =>
    ({ query: q }) =>
    async () => {
      const size = q.page_size ?? DEFAULT_PAGE_SIZE;
      let after: UserOperationAccountCursor | null = null;
      if (q.page_token !== undefined) {
        const parsed = parseToken(q.page_token, ['address']);
        if ('error' in parsed) return E.left(parsed.error);
        after = inclusiveCursor(parsed.ok[0] as Address);
      }
      if (ds.listUserOperationAccounts === undefined) {
        // a store without user operations has no accounts; one with them lacks this list
        if (ds.listUserOperations === undefined && ds.getUserOperationParties === undefined) return E.right({ items: [], next_page_params: null });
        return E.left(queryUnavailable(ACCOUNTS));
      }
      const filter = q.factory === undefined ? {} : { factory: q.factory };
      const rows = await ds.listUserOperationAccounts(filter, { after, limit: size + 1, order: 'desc' });
      const page = rows.slice(0, size);
      const next = rows[size];
      const ctx = await loadContext(ds, { addresses: page.flatMap((a) => [a.address, a.creation?.factory ?? null]) }, render);
      return E.right({
        items: page.map((a) => renderAccount(a, ctx)),
        next_page_params: nextPageParams(next === undefined ? null : checksum(next.address), size),
      });
    },
});
