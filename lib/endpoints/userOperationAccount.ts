/**
 * GET /proxy/account-abstraction/accounts/{address_hash_param} — one ERC-4337 account (a sender
 * of user operations) in Blockscout's user-ops-indexer `Account` shape: its operations' kept
 * count and its creation — the factory, transaction, operation and time of its operation that
 * carries a factory (its initCode), looked for among its first CREATION_SEARCH operations
 * (oldest first; an account created by its first operation is found at once); null when none
 * does (an account deployed without one). An address that sent no operation (or a store
 * without user operations) → 404 `{"code":5,"message":"account not found"}`.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Address } from '../domain/records.ts';
import type { UserOperationRecord } from '../domain/userOperations.ts';
import { addressHash } from '../params/codecs.ts';
import type { DataSource, UserOperationCursor } from '../ports.ts';
import { loadContext } from '../render/context.ts';
import { renderAddress, renderAddressOrNull } from '../render/address.ts';
import { iso } from '../render/format.ts';
import { Account } from '../schema/userOperation.ts';
import { defineEndpoint } from './endpoint.ts';
import { userOperationNotFound } from './userOperationPage.ts';

/** most operations of an account read to find its creation */
export const CREATION_SEARCH = 1000;
const STEP = 100;

/** the account's oldest operation carrying a factory among its first CREATION_SEARCH, or null */
async function creationOf(ds: DataSource, sender: Address): Promise<UserOperationRecord | null> {
  if (ds.listUserOperations === undefined) return null;
  let after: UserOperationCursor | null = null;
  for (let read = 0; read < CREATION_SEARCH; read += STEP) {
    const rows = await ds.listUserOperations({ sender }, { after, limit: STEP, order: 'asc' });
    const found = rows.find((o) => o.factory !== null);
    if (found !== undefined) return found;
    const last = rows[rows.length - 1];
    if (rows.length < STEP || last === undefined) return null;
    after = { blockNumber: last.blockNumber, hash: last.hash };
  }
  return null;
}

export const userOperationAccount = defineEndpoint({
  route: '/proxy/account-abstraction/accounts/{address_hash_param}',
  summary: 'One ERC-4337 account: its operations and its creation',
  path: { address_hash_param: addressHash },
  query: {},
  response: Account,
  handler:
    ({ ds, render }) =>
    ({ path }) =>
    async () => {
      const address = path.address_hash_param;
      const [party] = ds.getUserOperationParties === undefined ? [] : await ds.getUserOperationParties('sender', [address]);
      if (party === undefined) return E.left(userOperationNotFound('account'));
      const creation = await creationOf(ds, address);
      const ctx = await loadContext(ds, { addresses: [address, creation?.factory ?? null] }, render);
      return E.right({
        address: renderAddress(address, ctx),
        factory: renderAddressOrNull(creation?.factory ?? null, ctx),
        creation_transaction_hash: creation?.transactionHash ?? null,
        creation_op_hash: creation?.hash ?? null,
        creation_timestamp: creation === null ? null : iso(creation.timestamp),
        total_ops: party.totalOps,
      });
    },
});
