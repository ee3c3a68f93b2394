/**
 * The DataSource over SQL: one query per file in queries/, composed here.
 *
 * Every list is a keyset (seek) query: equality prefix + cursor condition + ORDER BY matching
 * an index of migrations/ (001_initial, 005_address_lists, 010_token_search) + LIMIT. 'asc' pages flip every
 * ORDER BY column and the cursor comparison, so the same index serves them scanned backwards;
 * a block range bounds the scan. An OR filter (several kinds, method ids, token types, address
 * directions) is one seek per branch, each limited to the page size, merged (queries/seek.ts)
 * — the first `limit` rows of a union are among the first `limit` rows of each branch. The
 * other filters are row conditions on the leading seek.
 */
import type { Knex } from 'knex';
import type { VersionedDataSource } from '../../lib/ports.ts';
import type { Dialect } from './dialect.ts';
import { sqlContext } from './queries/context.ts';
import { countContracts } from './queries/countContracts.ts';
import { countTokenTransfers } from './queries/countTokenTransfers.ts';
import { countPendingTransactions } from './queries/countPendingTransactions.ts';
import { getAddressCounters } from './queries/getAddressCounters.ts';
import { getAddresses } from './queries/getAddresses.ts';
import { getAddressViews } from './queries/getAddressViews.ts';
import { getChainCounters } from './queries/getChainCounters.ts';
import { getCoinBalances } from './queries/getCoinBalances.ts';
import { listContractActivity } from './queries/listContractActivity.ts';
import { listDailyStats } from './queries/listDailyStats.ts';
import { sumBlocks } from './queries/sumBlocks.ts';
import { listAddresses } from './queries/listAddresses.ts';
import { listTokens } from './queries/listTokens.ts';
import { getBlock } from './queries/getBlock.ts';
import { getCoinBalance } from './queries/getCoinBalance.ts';
import { getContracts } from './queries/getContracts.ts';
import { getProxyHistory } from './queries/getProxyHistory.ts';
import { getDataVersion } from './queries/getDataVersion.ts';
import { getHighestBlockNumber } from './queries/getHighestBlockNumber.ts';
import { getTransaction } from './queries/getTransaction.ts';
import { getTransactions } from './queries/getTransactions.ts';
import { getTransactionTrace } from './queries/getTransactionTrace.ts';
import { getTokenInstances } from './queries/instances.ts';
import { listAccounts } from './queries/listAccounts.ts';
import { listBlockFigures } from './queries/listBlockFigures.ts';
import { listBlocks } from './queries/listBlocks.ts';
import { listCoinBalances } from './queries/listCoinBalances.ts';
import { listContracts } from './queries/listContracts.ts';
import { listInternalTransactions } from './queries/listInternalTransactions.ts';
import { listLogs } from './queries/listLogs.ts';
import { listNftCollections } from './queries/listNftCollections.ts';
import { listStateChanges } from './queries/listStateChanges.ts';
import { listTokenBalances, listTokenHoldings } from './queries/listTokenBalances.ts';
import { listTokenHolders } from './queries/listTokenHolders.ts';
import { listTokenInstances } from './queries/listTokenInstances.ts';
import { listTokenTransfers } from './queries/listTokenTransfers.ts';
import { listTransactions } from './queries/listTransactions.ts';
import { tokensByAddress } from './queries/tokens.ts';
import { listWithdrawals } from './queries/listWithdrawals.ts';
import { getWithdrawalTotals } from './queries/getWithdrawalTotals.ts';
import { inOrder } from './queries/seek.ts';
import { getUserOperation, listUserOperations } from './queries/listUserOperations.ts';
import { listUserOperationBundles } from './queries/listUserOperationBundles.ts';
import { getUserOperationParties, listUserOperationParties } from './queries/listUserOperationParties.ts';
import { listUserOperationAccounts } from './queries/listUserOperationAccounts.ts';

/** (a copy's reads: never `replicas`, which only a store has) */
export function createSqlReader(knex: Knex, d: Dialect): Omit<VersionedDataSource, 'replicas'> {
  const c = sqlContext(knex, d);
  return {
    getBlock: (ref) => getBlock(c, ref),
    getTransaction: (hash) => getTransaction(c, hash),
    getTransactions: (hashes) => getTransactions(c, hashes),
    getToken: async (address) => (await tokensByAddress(c, [address])).get(address) ?? null,
    getDataVersion: () => getDataVersion(c),
    getHighestBlockNumber: () => getHighestBlockNumber(c),
    getAddresses: (hashes) => getAddresses(c, hashes),
    getAddressViews: (hashes) => getAddressViews(c, hashes),
    getTokens: async (addresses) => inOrder(addresses, await tokensByAddress(c, addresses)),
    getTokenInstances: (keys) => getTokenInstances(c, keys),
    listBlocks: (filter, page) => listBlocks(c, filter, page),
    listBlockFigures: (filter, page) => listBlockFigures(c, filter, page),
    listTransactions: (filter, page) => listTransactions(c, filter, page),
    listInternalTransactions: (filter, page) => listInternalTransactions(c, filter, page),
    listTokenTransfers: (filter, page) => listTokenTransfers(c, filter, page),
    countTokenTransfers: (filter) => countTokenTransfers(c, filter),
    listLogs: (filter, page) => listLogs(c, filter, page),
    listCoinBalances: (filter, page) => listCoinBalances(c, filter, page),
    listTokenBalances: (filter, page) => listTokenBalances(c, filter, page),
    listTokenHoldings: (filter, page) => listTokenHoldings(c, filter, page),
    listTokenHolders: (filter, page) => listTokenHolders(c, filter, page),
    listAccounts: (filter, page) => listAccounts(c, filter, page),
    getAddressCounters: (addresses) => getAddressCounters(c, addresses),
    getCoinBalances: (addresses) => getCoinBalances(c, addresses),
    listNftCollections: (filter, page) => listNftCollections(c, filter, page),
    listTokenInstances: (filter, page) => listTokenInstances(c, filter, page),
    listTokens: (filter, page) => listTokens(c, filter, page),
    listAddresses: (filter, page) => listAddresses(c, filter, page),
    listStateChanges: (transactionHash) => listStateChanges(c, transactionHash),
    listWithdrawals: (filter, page) => listWithdrawals(c, filter, page),
    getWithdrawalTotals: () => getWithdrawalTotals(c),
    getCoinBalance: (address) => getCoinBalance(c, address),
    getChainCounters: () => getChainCounters(c),
    countPendingTransactions: (filter) => countPendingTransactions(c, filter),
    listDailyStats: (range) => listDailyStats(c, range),
    sumBlocks: (range) => sumBlocks(c, range),
    listContractActivity: (filter, page) => listContractActivity(c, filter, page),
    getTransactionTrace: (transactionHash) => getTransactionTrace(c, transactionHash),
    getContracts: (addresses) => getContracts(c, addresses),
    getProxyHistory: (addresses) => getProxyHistory(c, addresses),
    listContracts: (filter, page) => listContracts(c, filter, page),
    countContracts: (filter) => countContracts(c, filter),
    getUserOperation: (hash) => getUserOperation(c, hash),
    listUserOperations: (filter, page) => listUserOperations(c, filter, page),
    listUserOperationBundles: (filter, page) => listUserOperationBundles(c, filter, page),
    listUserOperationParties: (role, page) => listUserOperationParties(c, role, page),
    getUserOperationParties: (role, addresses) => getUserOperationParties(c, role, addresses),
    listUserOperationAccounts: (filter, page) => listUserOperationAccounts(c, filter, page),
  };
}
