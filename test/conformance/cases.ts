/**
 * The requests the conformance suite makes: one or more per explorer endpoint of the
 * registry, each with its route (the OpenAPI path template it validates against).
 */
import type { ApiVersion, EndpointName } from '../../lib/index.ts';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../lib/index.ts';
import { documentedTemplate } from '../support/openapiOurs.ts';
import type { FixtureFacts } from '../../fixture/index.ts';

export interface Case {
  readonly endpoint: EndpointName;
  /** path template of the official documents (below /api/v2) */
  readonly template: string;
  /** concrete path below /api/v2 (below /api/v1 for a v1 endpoint: see formPrefix) */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly status?: number;
}

/**
 * The route of an endpoint module (the official documents' path template below /api/v2); a v1
 * endpoint's in full (`/api/v1/search`).
 */
export const templateOf = (endpoint: EndpointName): string => documentedTemplate(ENDPOINTS[endpoint]);

/** Where an endpoint's case paths go in a form: `/api/v2`, `/1/api/v2` (or `/api/v1`, `/1/api/v1` for a v1 endpoint). */
export function formPrefix(form: 'instance' | 'multichain', endpoint: EndpointName): string {
  const e: { readonly api?: ApiVersion } = ENDPOINTS[endpoint];
  return `${form === 'instance' ? '' : '/1'}/api/${e.api ?? 'v2'}`;
}

/**
 * Contract verification: not in Blockscout 11.2.7's document (nor the Pro API's); writes, and a
 * config that depends on the verifier. test/lib/contracts/verification.test.ts validates them
 * against our document.
 */
export const VERIFICATION_ENDPOINTS: readonly EndpointName[] = ['verificationConfig', 'verifyFlattenedCode', 'verifyStandardInput', 'verifyMultiPart', 'verifyVyperCode', 'verifyVyperMultiPart', 'verifyVyperStandardInput'];

/** The explorer endpoints (the registry without its meta entries such as the OpenAPI document, nor verification). */
export const EXPLORER_ENDPOINTS: readonly EndpointName[] = ENDPOINT_NAMES.filter((name) => ENDPOINTS[name].meta !== true && !VERIFICATION_ENDPOINTS.includes(name));

/** /advanced-filters and /advanced-filters/methods: each filter, a cursor, the method search. */
function advancedFilterCases(f: FixtureFacts, c: (endpoint: EndpointName, path: string, query?: Record<string, string>) => Case): Case[] {
  const hot = f.hotAddress;
  return [
    c('advancedFilters', '/advanced-filters'),
    c('advancedFilters', '/advanced-filters', { items_count: '7' }),
    c('advancedFilters', '/advanced-filters', { from_address_hashes_to_include: hot, to_address_hashes_to_include: `${hot},0x12`, address_relation: 'or' }),
    c('advancedFilters', '/advanced-filters', { from_address_hashes_to_exclude: hot, to_address_hashes_to_exclude: f.eoas.alice, address_relation: 'and' }),
    c('advancedFilters', '/advanced-filters', { transaction_types: 'ERC-20,ERC-721,ERC-1155,ERC-404,ERC-7984,ZRC-2' }),
    c('advancedFilters', '/advanced-filters', { transaction_types: 'coin_transfer,contract_interaction' }),
    c('advancedFilters', '/advanced-filters', { transaction_types: 'CONTRACT_CREATION' }),
    c('advancedFilters', '/advanced-filters', { methods: '0xa9059cbb,0x42842e0e,0x12345678', methods_names: 'approve,nope' }),
    c('advancedFilters', '/advanced-filters', { token_contract_address_hashes_to_include: `native,${f.tokens.erc20},${f.tokens.erc1155}` }),
    c('advancedFilters', '/advanced-filters', { token_contract_address_hashes_to_exclude: `NATIVE,${f.tokens.erc20}` }),
    c('advancedFilters', '/advanced-filters', { age_from: '2023-11-14 22:00:00+00:00', age_to: '2023-11-15T00:00:00Z' }),
    c('advancedFilters', '/advanced-filters', { age_from: '2023-11-14' }),
    c('advancedFilters', '/advanced-filters', { amount_from: '0.001', amount_to: '1e3' }),
    c('advancedFilters', '/advanced-filters', { amount_from: '1', amount_to: '1' }),
    c('advancedFilters', '/advanced-filters', { token_contract_symbols_to_include: 'USDX', token_contract_symbols_to_exclude: '' }),
    c('advancedFilters', '/advanced-filters', {
      block_number: String(f.headBlockNumber),
      transaction_index: '0',
      internal_transaction_index: 'null',
      token_transfer_index: '',
      token_transfer_batch_index: 'null',
      items_count: '5',
    }),
    c('advancedFilters', '/advanced-filters', { block_number: '1', transaction_index: '0' }),
    c('advancedFiltersMethods', '/advanced-filters/methods'),
    c('advancedFiltersMethods', '/advanced-filters/methods', { q: 'Transfer' }),
    c('advancedFiltersMethods', '/advanced-filters/methods', { q: '0x095EA7B3' }),
    c('advancedFiltersMethods', '/advanced-filters/methods', { q: '0x12345678' }),
    c('advancedFiltersMethods', '/advanced-filters/methods', { q: 'safeTransferFrom' }),
    c('advancedFiltersMethods', '/advanced-filters/methods', { q: 'nothing-like-it' }),
  ];
}

export function endpointCases(f: FixtureFacts): Case[] {
  const tx = f.transactions;
  const c = (endpoint: EndpointName, path: string, query?: Record<string, string>): Case => ({
    endpoint,
    template: templateOf(endpoint),
    path,
    ...(query === undefined ? {} : { query }),
  });
  const txCases = Object.entries(tx)
    .filter(([, v]) => typeof v === 'string' && v.length === 66)
    .map(([, h]) => h as string);
  return [
    c('addressTransactions', `/addresses/${f.eoas.erin}/transactions`),
    c('addressTransactions', `/addresses/${f.eoas.alice}/transactions`, { filter: 'from' }),
    c('addressTransactions', `/addresses/${f.contracts.factory}/transactions`, { filter: 'to', sort: 'block_number', order: 'asc' }),
    c('addressTokenTransfers', `/addresses/${f.hotAddress}/token-transfers`),
    c('addressTokenTransfers', `/addresses/${f.hotAddress}/token-transfers`, { type: 'ERC-1155', filter: 'to' }),
    c('addressTokenTransfers', `/addresses/${f.eoas.alice}/token-transfers`, { token: f.tokens.erc20 }),
    c('addressLogs', `/addresses/${f.tokens.erc20}/logs`),
    c('addressLogs', `/addresses/${f.contracts.emitter}/logs`),
    c('addressNft', `/addresses/${f.hotAddress}/nft`),
    c('addressNft', `/addresses/${f.hotAddress}/nft`, { type: 'ERC-1155' }),
    c('addressNft', `/addresses/${f.eoas.alice}/nft`),
    c('address', `/addresses/${f.hotAddress}`),
    c('address', `/addresses/${f.tokens.erc20}`),
    c('address', `/addresses/${f.eoas.alice}`),
    c('address', `/addresses/${f.miner}`),
    c('address', `/addresses/${f.transactions.contractCreationAddress}`),
    c('address', `/addresses/${f.unknownAddress}`),
    c('addressCoinBalanceHistory', `/addresses/${f.eoas.alice}/coin-balance-history`),
    c('addressCoinBalanceHistory', `/addresses/${f.hotAddress}/coin-balance-history`),
    c('addressCoinBalanceHistory', `/addresses/${f.unknownAddress}/coin-balance-history`),
    c('addressCoinBalanceHistoryByDay', `/addresses/${f.miner}/coin-balance-history-by-day`),
    c('addressCoinBalanceHistoryByDay', `/addresses/${f.unknownAddress}/coin-balance-history-by-day`),
    c('addressCounters', `/addresses/${f.hotAddress}/counters`),
    c('addressCounters', `/addresses/${f.miner}/counters`),
    c('addressCounters', `/addresses/${f.eoas.alice}/counters`),
    c('addressCounters', `/addresses/${f.unknownAddress}/counters`),
    c('addresses', '/addresses'),
    c('addresses', '/addresses', { sort: 'transactions_count', order: 'desc', items_count: '5' }),
    c('addresses', '/addresses', { sort: 'balance', order: 'asc' }),
    c('addresses', '/addresses', { sort: 'balance' }),
    c('addresses', '/addresses', { fetched_coin_balance: '1000000000000000000', hash: f.eoas.alice, transactions_count: '' }),
    c('addressTabsCounters', `/addresses/${f.hotAddress}/tabs-counters`),
    c('addressTabsCounters', `/addresses/${f.miner}/tabs-counters`),
    c('addressTabsCounters', `/addresses/${f.unknownAddress}/tabs-counters`),
    c('addressTokens', `/addresses/${f.hotAddress}/tokens`),
    c('addressTokens', `/addresses/${f.hotAddress}/tokens`, { type: 'ERC-1155,ERC-404' }),
    c('addressTokens', `/addresses/${f.eoas.alice}/tokens`),
    c('addressTokenBalances', `/addresses/${f.hotAddress}/token-balances`),
    c('addressTokenBalances', `/addresses/${f.eoas.bob}/token-balances`),
    c('addressInternalTransactions', `/addresses/${f.hotAddress}/internal-transactions`),
    c('addressInternalTransactions', `/addresses/${f.hotAddress}/internal-transactions`, { filter: 'to' }),
    c('addressNftCollections', `/addresses/${f.hotAddress}/nft/collections`),
    c('addressNftCollections', `/addresses/${f.eoas.alice}/nft/collections`),
    c('addressBlocksValidated', `/addresses/${f.miner}/blocks-validated`),
    c('transactions', '/transactions'),
    c('transactions', '/transactions', { filter: 'pending' }),
    ...txCases.map((h) => c('transaction', `/transactions/${h}`)),
    ...txCases.map((h) => c('transactionStateChanges', `/transactions/${h}/state-changes`)),
    ...txCases.map((h) => c('transactionLogs', `/transactions/${h}/logs`)),
    ...txCases.map((h) => c('transactionTokenTransfers', `/transactions/${h}/token-transfers`)),
    c('transactionTokenTransfers', `/transactions/${tx.manyLogs}/token-transfers`, { type: 'ERC-20' }),
    c('transactionTokenTransfers', `/transactions/${tx.erc1155LargeBatch}/token-transfers`, { type: 'ERC-1155,ERC-721' }),
    ...txCases.map((h) => c('transactionInternalTransactions', `/transactions/${h}/internal-transactions`)),
    c('transactionInternalTransactions', `/transactions/${tx.manyLogs}/internal-transactions`, { include_zero_value: 'false' }),
    c('internalTransactions', '/internal-transactions'),
    c('internalTransactions', '/internal-transactions', { transaction_hash: tx.createdByContract }),
    c('tokenTransfers', '/token-transfers'),
    c('tokenTransfers', '/token-transfers', { type: 'ERC-1155' }),
    c('tokenTransfers', '/token-transfers', { type: 'ERC-7984,ERC-404' }),
    c('tokenInstances', `/tokens/${f.instancesToken}/instances`),
    c('tokenInstances', `/tokens/${f.tokens.erc1155}/instances`),
    c('tokenInstances', `/tokens/${f.tokens.erc1155}/instances`, { holder_address_hash: f.hotAddress }),
    c('token', `/tokens/${f.tokens.erc20}`),
    c('token', `/tokens/${f.tokens.erc721}`),
    c('token', `/tokens/${f.tokens.erc1155}`),
    c('tokenInstance', `/tokens/${f.tokens.erc721}/instances/${f.bigTokenId}`),
    c('tokenInstance', `/tokens/${f.tokens.erc1155}/instances/${f.huge1155Id}`),
    c('tokenHolders', `/tokens/${f.busyToken}/holders`),
    c('tokenHolders', `/tokens/${f.tokens.erc1155}/holders`),
    c('tokenHolders', `/tokens/${f.tokens.erc721}/holders`),
    c('tokenInstanceHolders', `/tokens/${f.tokens.erc1155}/instances/${f.huge1155Id}/holders`),
    c('tokenInstanceHolders', `/tokens/${f.tokens.erc721}/instances/${f.bigTokenId}/holders`),
    c('tokenCounters', `/tokens/${f.busyToken}/counters`),
    c('tokenCounters', `/tokens/${f.tokens.erc1155}/counters`),
    c('tokenInstanceTransfersCount', `/tokens/${f.tokens.erc721}/instances/${f.bigTokenId}/transfers-count`),
    c('tokenInstanceTransfersCount', `/tokens/${f.tokens.erc1155}/instances/${f.huge1155Id}/transfers-count`),
    c('tokenInstanceTransfers', `/tokens/${f.tokens.erc721}/instances/${f.bigTokenId}/transfers`),
    c('tokenInstanceTransfers', `/tokens/${f.tokens.erc1155}/instances/${f.huge1155Id}/transfers`),
    c('tokenTransfersOfToken', `/tokens/${f.busyToken}/transfers`),
    c('tokenTransfersOfToken', `/tokens/${f.tokens.erc1155}/transfers`),
    c('tokens', '/tokens/'),
    c('tokens', '/tokens'),
    c('tokens', '/tokens/', { q: 'usd' }),
    c('tokens', '/tokens/', { q: ` ${f.tokens.erc20.toUpperCase().replace('0X', '0x')} ` }),
    c('tokens', '/tokens/', { q: '--', type: 'ERC-721,ERC-1155', items_count: '3' }),
    c('tokens', '/tokens/', { sort: 'holders_count', order: 'asc', limit: '5' }),
    c('tokens', '/tokens/', { q: 'zzzz' }),
    c('search', '/search', { q: 'bulk' }),
    c('search', '/search', { q: 'fixture' }),
    c('search', '/search', { q: f.tokens.erc20 }),
    c('search', '/search', { q: f.contracts.router }),
    c('search', '/search', { q: tx.eip1559 }),
    c('search', '/search', { q: f.headBlockHash }),
    c('search', '/search', { q: '12' }),
    c('search', '/search', { q: '123' }),
    c('search', '/search', { q: '' }),
    c('search', '/search', { q: '!!' }),
    c('search', '/search', { q: f.unknownAddress }),
    // a 32-byte hash of nothing: transaction, block and user operation looked up, none found
    // (the fixture has no user operations: test/lib/endpoints/userOperationSearch.test.ts finds one)
    c('search', '/search', { q: `0x${'ab'.repeat(32)}` }),
    c('search', '/search'),
    c('searchV1', '/search', { q: 'bulk' }),
    c('searchV1', '/search/', { q: tx.eip1559 }),
    c('searchV1', '/search', { q: 'fixture', items_count: '2' }),
    c('searchQuick', '/search/quick', { q: 'bul' }),
    c('searchQuick', '/search/quick', { q: tx.eip1559 }),
    c('searchQuick', '/search/quick', { q: 'ab' }),
    c('searchCheckRedirect', '/search/check-redirect', { q: f.tokens.erc20.slice(2) }),
    c('searchCheckRedirect', '/search/check-redirect', { q: tx.eip1559 }),
    c('searchCheckRedirect', '/search/check-redirect', { q: f.headBlockHash }),
    c('searchCheckRedirect', '/search/check-redirect', { q: `0x${'ab'.repeat(32)}` }),
    c('searchCheckRedirect', '/search/check-redirect', { q: String(f.headBlockNumber) }),
    c('searchCheckRedirect', '/search/check-redirect', { q: String(f.headBlockNumber + 1) }),
    c('searchCheckRedirect', '/search/check-redirect', { q: 'bulk' }),
    c('blocks', '/blocks'),
    c('block', `/blocks/${f.headBlockNumber}`),
    c('block', `/blocks/${f.headBlockHash}`),
    c('blockTransactions', `/blocks/${f.busiestBlock}/transactions`),
    c('blockTransactions', `/blocks/${f.headBlockHash}/transactions`),
    c('blockTransactions', `/blocks/${f.busiestBlock}/transactions`, { type: 'contract_call' }),
    c('blockTransactions', `/blocks/${f.busiestBlock}/transactions`, { type: 'token_transfer' }),
    c('blockTransactions', '/blocks/0/transactions'),
    { ...c('blockTransactions', `/blocks/${f.headBlockNumber + 1}/transactions`), status: 404 },
    c('blockInternalTransactions', `/blocks/${f.busiestBlock}/internal-transactions`),
    c('blockInternalTransactions', `/blocks/${f.headBlockHash}/internal-transactions`),
    c('blockInternalTransactions', `/blocks/${f.busiestBlock}/internal-transactions`, { internal_type: 'create', call_type: 'delegatecall' }),
    { ...c('blockInternalTransactions', `/blocks/${f.headBlockNumber + 1}/internal-transactions`), status: 404 },
    c('blockCountdown', `/blocks/${f.headBlockNumber + 1}/countdown`),
    c('blockCountdown', `/blocks/${f.headBlockNumber + 1_000_000}/countdown`),
    { ...c('blockCountdown', `/blocks/${f.headBlockNumber}/countdown`), status: 404 },
    { ...c('blockCountdown', '/blocks/0/countdown'), status: 404 },
    c('mainPageBlocks', '/main-page/blocks'),
    c('mainPageTransactions', '/main-page/transactions'),
    c('mainPageIndexingStatus', '/main-page/indexing-status'),
    c('statsMarketChart', '/stats/charts/market'),
    c('stats', '/stats'),
    c('statsTransactionsChart', '/stats/charts/transactions'),
    c('transactionsStats', '/transactions/stats'),
    c('statsHotSmartContracts', '/stats/hot-smart-contracts', { scale: '1d' }),
    c('statsHotSmartContracts', '/stats/hot-smart-contracts', { scale: '3h', sort: 'total_gas_used', order: 'asc', items_count: '5' }),
    c('statsHotSmartContracts', '/stats/hot-smart-contracts', { scale: '30d', sort: 'transactions_count', order: 'desc' }),
    c('statsHotSmartContracts', '/stats/hot-smart-contracts', { scale: '5m' }),
    c('configBackendVersion', '/config/backend-version'),
    c('configBackend', '/config/backend'),
    c('configIndexer', '/config/indexer'),
    c('configCsvExport', '/config/csv-export'),
    c('configPublicMetrics', '/config/public-metrics'),
    c('configDbBackgroundMigrations', '/config/db-background-migrations'),
    c('configSmartContractLanguages', '/config/smart-contracts/languages'),
    c('withdrawals', '/withdrawals'),
    c('withdrawals', '/withdrawals', { index: String(f.withdrawals.count + 41_000 - 60), items_count: '20' }),
    c('withdrawals', '/withdrawals', { index: '0' }),
    c('withdrawalsCounters', '/withdrawals/counters'),
    c('addressWithdrawals', `/addresses/${f.withdrawals.busiestRecipient}/withdrawals`),
    c('addressWithdrawals', `/addresses/${f.withdrawals.recipients[4] ?? f.unknownAddress}/withdrawals`, { items_count: '5' }),
    c('addressWithdrawals', `/addresses/${f.unknownAddress}/withdrawals`),
    c('blockWithdrawals', `/blocks/${f.withdrawals.busiestBlock}/withdrawals`),
    c('blockWithdrawals', `/blocks/${f.headBlockHash}/withdrawals`, { items_count: '4' }),
    c('blockWithdrawals', `/blocks/${f.withdrawals.blockWithout}/withdrawals`),
    { ...c('blockWithdrawals', `/blocks/${f.headBlockNumber + 1}/withdrawals`), status: 404 },
    ...csvCases(f).map((x) => c(x.endpoint, x.path, x.query)),
    ...advancedFilterCases(f, c),
    ...txCases.map((h) => c('transactionRawTrace', `/transactions/${h}/raw-trace`)),
    c('transactionRawTrace', `/transactions/${f.pendingHashes[0] ?? ''}/raw-trace`),
    ...txCases.map((h) => c('transactionPreview', `/transactions/${h}/preview`)),
    c('transactionPreview', `/transactions/${f.pendingHashes[0] ?? ''}/preview`),
    c('transactionPreview', `/transactions/${tx.failedInternalCall}/preview`, { decode_input: 'true', preload_ens: 'true', preload_metadata: 'false' }),
    c('statsSecondaryCoinMarketChart', '/stats/charts/secondary-coin-market'),
    c('transactionFheOperations', `/transactions/${tx.failedInternalCall}/fhe-operations`),
    c('transactionFheOperations', `/transactions/${f.pendingHashes[0] ?? ''}/fhe-operations`),
    ...txCases.map((h) => c('transactionSummary', `/transactions/${h}/summary`)),
    c('transactionSummary', `/transactions/${f.pendingHashes[0] ?? ''}/summary`),
    c('transactionSummary', `/transactions/${tx.approval}/summary`, { just_request_body: 'false' }),
    ...txCases.map((h) => c('transactionSummary', `/transactions/${h}/summary`, { just_request_body: 'true' })),
    c('transactionSummary', `/transactions/${f.pendingHashes[0] ?? ''}/summary`, { just_request_body: 'true' }),
    // the fixture chain holds no user operations (test/lib/endpoints/userOperation*.test.ts write some)
    { ...c('userOperation', `/proxy/account-abstraction/operations/0x${'ab'.repeat(32)}`), status: 404 },
    { ...c('userOperationSummary', `/proxy/account-abstraction/operations/0x${'ab'.repeat(32)}/summary`), status: 404 },
    c('userOperations', '/proxy/account-abstraction/operations'),
    c('userOperations', '/proxy/account-abstraction/operations', { sender: f.eoas.alice, page_size: '5' }),
    c('userOperationsStatus', '/proxy/account-abstraction/status'),
    c('userOperationBundles', '/proxy/account-abstraction/bundles'),
    c('userOperationBundles', '/proxy/account-abstraction/bundles', { bundler: f.eoas.alice, page_size: '5' }),
    c('userOperationBundlers', '/proxy/account-abstraction/bundlers', { page_size: '5' }),
    { ...c('userOperationBundler', `/proxy/account-abstraction/bundlers/${f.eoas.alice}`), status: 404 },
    c('userOperationPaymasters', '/proxy/account-abstraction/paymasters', { page_size: '5' }),
    { ...c('userOperationPaymaster', `/proxy/account-abstraction/paymasters/${f.eoas.alice}`), status: 404 },
    c('userOperationFactories', '/proxy/account-abstraction/factories', { page_size: '5' }),
    { ...c('userOperationFactory', `/proxy/account-abstraction/factories/${f.eoas.alice}`), status: 404 },
    { ...c('userOperationAccount', `/proxy/account-abstraction/accounts/${f.eoas.alice}`), status: 404 },
    c('userOperationAccounts', '/proxy/account-abstraction/accounts'),
    c('userOperationAccounts', '/proxy/account-abstraction/accounts', { factory: f.eoas.alice, page_size: '5' }),
    c('smartContracts', '/smart-contracts'),
    c('smartContracts', '/smart-contracts/', { items_count: '3' }),
    c('smartContracts', '/smart-contracts', { q: f.smartContracts.byFrame.slice(0, 12) }),
    c('smartContracts', '/smart-contracts', { q: 'USDX' }),
    c('smartContracts', '/smart-contracts', { filter: 'solidity' }),
    c('smartContracts', '/smart-contracts', { sort: 'balance', order: 'desc' }),
    c('smartContractsCounters', '/smart-contracts/counters'),
    c('smartContract', `/smart-contracts/${f.smartContracts.byTransaction}`),
    c('smartContract', `/smart-contracts/${f.smartContracts.byFrame}`),
    c('smartContractAuditReports', `/smart-contracts/${f.smartContracts.byFrame}/audit-reports`),
  ];
}

/** The fixture chain's blocks all fall on this UTC day. */
export const FIXTURE_DAY = '2023-11-14';

/** The CSV exports' requests (also compared row by row with their JSON lists in behaviour.ts). */
export function csvCases(f: FixtureFacts): { endpoint: EndpointName; path: string; query: Record<string, string> }[] {
  const day = { from_period: FIXTURE_DAY, to_period: FIXTURE_DAY };
  const window = { from_period: `${FIXTURE_DAY}T22:20:00Z`, to_period: `${FIXTURE_DAY}T22:30:00.5Z` };
  return [
    { endpoint: 'addressTransactionsCsv', path: `/addresses/${f.eoas.alice}/transactions/csv`, query: day },
    { endpoint: 'addressTransactionsCsv', path: `/addresses/${f.hotOwner}/transactions/csv`, query: { ...window, filter_type: 'address', filter_value: 'from' } },
    { endpoint: 'addressTransactionsCsv', path: `/addresses/${f.eoas.alice}/transactions/csv`, query: { from_period: '2020-01-01', to_period: '2020-01-02' } },
    { endpoint: 'addressTokenTransfersCsv', path: `/addresses/${f.hotAddress}/token-transfers/csv`, query: day },
    { endpoint: 'addressTokenTransfersCsv', path: `/addresses/${f.tokens.erc20}/token-transfers/csv`, query: window },
    { endpoint: 'addressTokenTransfersCsv', path: `/addresses/${f.hotAddress}/token-transfers/csv`, query: { ...day, filter_type: 'address', filter_value: 'to' } },
    { endpoint: 'addressInternalTransactionsCsv', path: `/addresses/${f.hotAddress}/internal-transactions/csv`, query: day },
    { endpoint: 'addressInternalTransactionsCsv', path: `/addresses/${f.hotAddress}/internal-transactions/csv`, query: { ...window, filter_type: 'address', filter_value: 'to' } },
    { endpoint: 'addressLogsCsv', path: `/addresses/${f.tokens.erc20}/logs/csv`, query: day },
    { endpoint: 'addressLogsCsv', path: `/addresses/${f.contracts.emitter}/logs/csv`, query: { from_period: 'null', to_period: 'null' } },
    { endpoint: 'tokenHoldersCsv', path: `/tokens/${f.busyToken}/holders/csv`, query: {} },
    { endpoint: 'tokenHoldersCsv', path: `/tokens/${f.tokens.erc1155}/holders/csv`, query: day },
    { endpoint: 'advancedFiltersCsv', path: '/advanced-filters/csv', query: {} },
    { endpoint: 'advancedFiltersCsv', path: '/advanced-filters/csv', query: { transaction_types: 'ERC-721,ERC-1155,ERC-404', token_contract_address_hashes_to_exclude: f.tokens.erc20 } },
    {
      endpoint: 'advancedFiltersCsv',
      path: '/advanced-filters/csv',
      query: {
        from_address_hashes_to_include: f.hotAddress,
        to_address_hashes_to_include: f.hotAddress,
        block_number: String(Math.floor(f.headBlockNumber / 2)),
        transaction_index: '0',
        internal_transaction_index: 'null',
        token_transfer_index: '',
        token_transfer_batch_index: 'null',
      },
    },
  ];
}
