/**
 * The requests the conformance suite makes: one or more per explorer endpoint of the
 * registry, each with its route (the OpenAPI path template it validates against).
 */
import type { EndpointName } from '../../lib/index.ts';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../lib/index.ts';
import type { FixtureFacts } from '../../fixture/index.ts';

export interface Case {
  readonly endpoint: EndpointName;
  /** path template of the official documents (below /api/v2) */
  readonly template: string;
  /** concrete path below /api/v2 */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly status?: number;
}

/** The route of an endpoint module (the official documents' path template below /api/v2). */
export const templateOf = (endpoint: EndpointName): string => ENDPOINTS[endpoint].route;

/** The explorer endpoints (the registry without its meta entries such as the OpenAPI document). */
export const EXPLORER_ENDPOINTS: readonly EndpointName[] = ENDPOINT_NAMES.filter((name) => ENDPOINTS[name].meta !== true);

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
    c('search', '/search'),
    c('searchQuick', '/search/quick', { q: 'bul' }),
    c('searchQuick', '/search/quick', { q: tx.eip1559 }),
    c('searchQuick', '/search/quick', { q: 'ab' }),
    c('searchCheckRedirect', '/search/check-redirect', { q: f.tokens.erc20.slice(2) }),
    c('searchCheckRedirect', '/search/check-redirect', { q: tx.eip1559 }),
    c('searchCheckRedirect', '/search/check-redirect', { q: f.headBlockHash }),
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
    c('configBackendVersion', '/config/backend-version'),
    c('configBackend', '/config/backend'),
    c('configIndexer', '/config/indexer'),
    c('configCsvExport', '/config/csv-export'),
    c('configPublicMetrics', '/config/public-metrics'),
    c('configDbBackgroundMigrations', '/config/db-background-migrations'),
    c('configSmartContractLanguages', '/config/smart-contracts/languages'),
  ];
}
