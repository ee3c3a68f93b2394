/**
 * The registry: every endpoint module, by name. Everything per endpoint is derived from it —
 * the endpoint names, the route table (lib/routes.ts), dispatch, the typed client
 * (lib/client.ts) and the OpenAPI document (lib/openapi/). A new path is a new module here.
 */
import { address } from './address.ts';
import { advancedFilters } from './advancedFilters.ts';
import { advancedFiltersMethods } from './advancedFiltersMethods.ts';
import { advancedFiltersCsv } from './advancedFiltersCsv.ts';
import { addressBlocksValidated } from './addressBlocksValidated.ts';
import { addressCounters } from './addressCounters.ts';
import { addresses } from './addresses.ts';
import { addressCoinBalanceHistory } from './addressCoinBalanceHistory.ts';
import { addressCoinBalanceHistoryByDay } from './addressCoinBalanceHistoryByDay.ts';
import { addressInternalTransactions } from './addressInternalTransactions.ts';
import { addressLogs } from './addressLogs.ts';
import { addressNft } from './addressNft.ts';
import { addressNftCollections } from './addressNftCollections.ts';
import { addressTokenBalances } from './addressTokenBalances.ts';
import { addressTabsCounters } from './addressTabsCounters.ts';
import { addressTokens } from './addressTokens.ts';
import { addressTokenTransfers } from './addressTokenTransfers.ts';
import { addressTransactions } from './addressTransactions.ts';
import { addressWithdrawals } from './addressWithdrawals.ts';
import { addressInternalTransactionsCsv } from './addressInternalTransactionsCsv.ts';
import { addressLogsCsv } from './addressLogsCsv.ts';
import { addressTokenTransfersCsv } from './addressTokenTransfersCsv.ts';
import { addressTransactionsCsv } from './addressTransactionsCsv.ts';
import { block } from './block.ts';
import { blockCountdown } from './blockCountdown.ts';
import { blockInternalTransactions } from './blockInternalTransactions.ts';
import { blocks } from './blocks.ts';
import { blockTransactions } from './blockTransactions.ts';
import { blockWithdrawals } from './blockWithdrawals.ts';
import { configBackend } from './configBackend.ts';
import { configBackendVersion } from './configBackendVersion.ts';
import { configCsvExport } from './configCsvExport.ts';
import { configDbBackgroundMigrations } from './configDbBackgroundMigrations.ts';
import { configIndexer } from './configIndexer.ts';
import { configPublicMetrics } from './configPublicMetrics.ts';
import { configSmartContractLanguages } from './configSmartContractLanguages.ts';
import type { AnyEndpoint } from './endpoint.ts';
import { erased } from './endpoint.ts';
import { internalTransactions } from './internalTransactions.ts';
import { mainPageBlocks } from './mainPageBlocks.ts';
import type { EndpointName } from './names.ts';
import { mainPageIndexingStatus } from './mainPageIndexingStatus.ts';
import { mainPageTransactions } from './mainPageTransactions.ts';
import { openApiEndpoint } from './openApi.ts';
import { stats } from './stats.ts';
import { statsHotSmartContracts } from './statsHotSmartContracts.ts';
import { smartContract } from './smartContract.ts';
import { verificationConfig } from './verificationConfig.ts';
import { verifyFlattenedCode } from './verifyFlattenedCode.ts';
import { verifyMultiPart } from './verifyMultiPart.ts';
import { verifyVyperCode } from './verifyVyperCode.ts';
import { verifyVyperMultiPart } from './verifyVyperMultiPart.ts';
import { verifyVyperStandardInput } from './verifyVyperStandardInput.ts';
import { verifyStandardInput } from './verifyStandardInput.ts';
import { smartContractAuditReports } from './smartContractAuditReports.ts';
import { smartContracts } from './smartContracts.ts';
import { smartContractsCounters } from './smartContractsCounters.ts';
import { search } from './search.ts';
import { searchCheckRedirect } from './searchCheckRedirect.ts';
import { searchQuick } from './searchQuick.ts';
import { searchV1 } from './searchV1.ts';
import { statsMarketChart } from './statsMarketChart.ts';
import { statsSecondaryCoinMarketChart } from './statsSecondaryCoinMarketChart.ts';
import { statsTransactionsChart } from './statsTransactionsChart.ts';
import { transactionsStats } from './transactionsStats.ts';
import { token } from './token.ts';
import { tokenCounters } from './tokenCounters.ts';
import { tokenHolders } from './tokenHolders.ts';
import { tokenHoldersCsv } from './tokenHoldersCsv.ts';
import { events } from './events.ts';
import { tokenInstance } from './tokenInstance.ts';
import { tokenInstanceHolders } from './tokenInstanceHolders.ts';
import { tokenInstances } from './tokenInstances.ts';
import { tokenInstanceTransfers } from './tokenInstanceTransfers.ts';
import { tokenInstanceTransfersCount } from './tokenInstanceTransfersCount.ts';
import { tokenTransfers } from './tokenTransfers.ts';
import { tokenTransfersOfToken } from './tokenTransfersOfToken.ts';
import { tokens } from './tokens.ts';
import { transaction } from './transaction.ts';
import { transactionInternalTransactions } from './transactionInternalTransactions.ts';
import { transactionLogs } from './transactionLogs.ts';
import { transactionFheOperations } from './transactionFheOperations.ts';
import { transactionSummary } from './transactionSummary.ts';
import { userOperation } from './userOperation.ts';
import { userOperationSummary } from './userOperationSummary.ts';
import { userOperations } from './userOperations.ts';
import { userOperationsStatus } from './userOperationsStatus.ts';
import { userOperationBundles } from './userOperationBundles.ts';
import { userOperationBundlers } from './userOperationBundlers.ts';
import { userOperationBundler } from './userOperationBundler.ts';
import { userOperationPaymasters } from './userOperationPaymasters.ts';
import { userOperationPaymaster } from './userOperationPaymaster.ts';
import { userOperationFactories } from './userOperationFactories.ts';
import { userOperationFactory } from './userOperationFactory.ts';
import { userOperationAccount } from './userOperationAccount.ts';
import { userOperationAccounts } from './userOperationAccounts.ts';
import { transactionPreview } from './transactionPreview.ts';
import { transactionRawTrace } from './transactionRawTrace.ts';
import { transactions } from './transactions.ts';
import { transactionStateChanges } from './transactionStateChanges.ts';
import { transactionTokenTransfers } from './transactionTokenTransfers.ts';
import { withdrawals } from './withdrawals.ts';
import { withdrawalsCounters } from './withdrawalsCounters.ts';

/** The explorer endpoints: what the OpenAPI document describes. */
const EXPLORER_ENDPOINTS = {
  address,
  addressTransactions,
  addressTokenTransfers,
  addressLogs,
  addressNft,
  addressTabsCounters,
  addressCounters,
  addresses,
  addressCoinBalanceHistory,
  addressCoinBalanceHistoryByDay,
  addressTokens,
  addressTokenBalances,
  addressInternalTransactions,
  addressNftCollections,
  addressBlocksValidated,
  transactions,
  transactionsStats,
  transaction,
  transactionStateChanges,
  transactionLogs,
  transactionTokenTransfers,
  transactionInternalTransactions,
  transactionRawTrace,
  transactionPreview,
  transactionFheOperations,
  transactionSummary,
  userOperation,
  userOperationSummary,
  userOperations,
  userOperationsStatus,
  userOperationBundles,
  userOperationBundlers,
  userOperationBundler,
  userOperationPaymasters,
  userOperationPaymaster,
  userOperationFactories,
  userOperationFactory,
  userOperationAccount,
  userOperationAccounts,
  internalTransactions,
  tokenTransfers,
  token,
  tokenCounters,
  tokenHolders,
  tokenInstance,
  tokenInstanceHolders,
  tokenInstances,
  tokenInstanceTransfers,
  tokenInstanceTransfersCount,
  tokenTransfersOfToken,
  tokens,
  search,
  searchQuick,
  searchCheckRedirect,
  searchV1,
  blocks,
  block,
  blockCountdown,
  blockTransactions,
  blockInternalTransactions,
  mainPageBlocks,
  mainPageTransactions,
  mainPageIndexingStatus,
  statsMarketChart,
  statsSecondaryCoinMarketChart,
  stats,
  statsTransactionsChart,
  statsHotSmartContracts,
  configBackendVersion,
  configBackend,
  configIndexer,
  configCsvExport,
  configPublicMetrics,
  configDbBackgroundMigrations,
  configSmartContractLanguages,
  withdrawals,
  withdrawalsCounters,
  addressWithdrawals,
  blockWithdrawals,
  addressTransactionsCsv,
  addressTokenTransfersCsv,
  addressInternalTransactionsCsv,
  addressLogsCsv,
  tokenHoldersCsv,
  advancedFilters,
  advancedFiltersMethods,
  advancedFiltersCsv,
  smartContracts,
  smartContractsCounters,
  smartContract,
  smartContractAuditReports,
  verificationConfig,
  verifyFlattenedCode,
  verifyStandardInput,
  verifyMultiPart,
  verifyVyperCode,
  verifyVyperMultiPart,
  verifyVyperStandardInput,
} as const;

/** Explorer endpoints with their parameter types erased. */
export const DOCUMENTED: Readonly<Record<string, AnyEndpoint>> = Object.fromEntries(
  Object.entries(EXPLORER_ENDPOINTS).map(([name, e]) => [name, erased(e)]),
);

/**
 * Beside the explorer's: the OpenAPI document, and `/events` (server-sent events of live
 * topics: a stream, not a Blockscout REST answer, so left out of the document and its table)
 */
export const ENDPOINTS = { ...EXPLORER_ENDPOINTS, openApi: openApiEndpoint(DOCUMENTED), events } as const;

/** `true` when `A` and `B` are the same set of names */
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// the registry's keys are exactly the names of ./names.ts (a leaf that any module may import)
true satisfies SameNames<keyof typeof ENDPOINTS, EndpointName>;

export type { EndpointName };

/** Every endpoint name, registry order. */
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as readonly EndpointName[];

/** An endpoint by name, with its parameter types erased for dispatch. */
export function endpointByName(name: EndpointName): AnyEndpoint {
  return erased(ENDPOINTS[name]);
}
