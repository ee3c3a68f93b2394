/**
 * GET /addresses/{address_hash_param}/tabs-counters — rows per address tab, each counted to at
 * most 51 as Blockscout does (51 = "more than 50"): every count is the first 51 rows of the
 * tab's own keyset list, so its cost does not grow with the chain.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Address } from '../domain/records.ts';
import { addressHash } from '../params/codecs.ts';
import type { DataSource } from '../ports.ts';
import { AddressTabsCounters } from '../schema/addressCounters.ts';
import { defineEndpoint } from './endpoint.ts';

export const TAB_COUNT_CAP = 51;

const first = { after: null, limit: TAB_COUNT_CAP, order: 'desc' } as const;

/** Transactions from, to or creating the address, pending included, distinct by hash. */
async function transactionsCount(ds: DataSource, address: Address): Promise<number> {
  const [validated, pending] = await Promise.all([
    ds.listTransactions({ status: 'validated', address }, first),
    ds.listTransactions({ status: 'pending', address }, first),
  ]);
  return Math.min(new Set([...validated, ...pending].map((tx) => tx.hash)).size, TAB_COUNT_CAP);
}

export const addressTabsCounters = defineEndpoint({
  route: '/addresses/{address_hash_param}/tabs-counters',
  summary: 'Rows per address tab, each counted to at most 51',
  path: { address_hash_param: addressHash },
  query: {},
  response: AddressTabsCounters,
  handler:
    ({ ds }) =>
    ({ path }) =>
    async () => {
      const address = path.address_hash_param;
      const [transactions, transfers, balances, logs, internal, blocks, reorgs, withdrawals] = await Promise.all([
        transactionsCount(ds, address),
        ds.listTokenTransfers({ address }, first),
        ds.listTokenBalances({ holder: address }, first),
        ds.listLogs({ address }, first),
        ds.listInternalTransactions({ address }, first),
        ds.listBlocks({ kind: 'block', miner: address }, first),
        ds.listBlocks({ kind: 'reorg', miner: address }, first),
        ds.listWithdrawals({ address }, first),
      ]);
      return E.right({
        internal_transactions_count: internal.length,
        logs_count: logs.length,
        token_balances_count: balances.length,
        token_transfers_count: transfers.length,
        transactions_count: transactions,
        // blocks mined, whatever their consensus (Blockscout counts every block row)
        validations_count: Math.min(blocks.length + reorgs.length, TAB_COUNT_CAP),
        withdrawals_count: withdrawals.length,
      });
    },
});
