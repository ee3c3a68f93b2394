/** Bodies of the home page's counters and charts (main page, stats). */
import * as t from 'io-ts';
import { component, withSchema } from '../openapi/jsonSchema.ts';
import { Address } from './address.ts';
import { DateString, emptyList, ExactInteger, Integer, IntegerString, nullable, Timestamp } from './scalars.ts';

/** Blockscout sends the ratios as decimal strings; the official documents (and we) say number. */
export const IndexingStatus = t.type({
  finished_indexing: t.boolean,
  finished_indexing_blocks: t.boolean,
  indexed_blocks_ratio: t.number,
  indexed_internal_transactions_ratio: t.union([t.number, t.null]),
});

/** The integer 0: Blockscout's `available_supply` without a market data source. */
const NoSupply = withSchema(t.literal(0), { type: 'integer', enum: [0], description: 'no market data source: always 0' });

export const MarketChart = t.type({
  chart_data: emptyList('there is no market data source (no prices, market caps or TVL)'),
  available_supply: NoSupply,
});

/** `/stats/charts/secondary-coin-market`: the secondary coin's daily closing prices (none without a market source). */
export const SecondaryCoinMarketChart = t.type({
  chart_data: emptyList('there is no market data source and no secondary coin (no closing prices)'),
});

/** `/stats`: every key of Blockscout's default answer (no market source: prices null). */
const GasPrice = nullable(t.number);
export const ChainStats = t.type({
  total_blocks: IntegerString,
  total_addresses: IntegerString,
  total_transactions: IntegerString,
  average_block_time: t.number,
  coin_image: t.null,
  coin_price: t.null,
  coin_price_change_percentage: t.null,
  secondary_coin_image: t.null,
  secondary_coin_price: t.null,
  total_gas_used: IntegerString,
  transactions_today: IntegerString,
  gas_used_today: t.union([IntegerString, t.literal(0)]),
  gas_prices: t.type({ slow: GasPrice, average: GasPrice, fast: GasPrice }),
  gas_prices_update_in: Integer,
  gas_price_updated_at: Timestamp,
  static_gas_price: t.null,
  market_cap: IntegerString,
  tvl: t.null,
  network_utilization_percentage: t.number,
});

/** `/stats/charts/transactions`: transactions per day, newest first. */
export const TransactionsChart = t.type({
  chart_data: t.array(t.type({ date: DateString, transactions_count: Integer })),
});

/** `/transactions/stats`: the last 24 h and the pending transactions of the last 30 minutes. */
export const TransactionStats = t.type({
  transactions_count_24h: IntegerString,
  pending_transactions_count: IntegerString,
  transaction_fees_sum_24h: IntegerString,
  transaction_fees_avg_24h: IntegerString,
});

/** An item of `/stats/hot-smart-contracts` (the counts are JSON integers, as the official documents type them). */
export const HotContract = component(
  'HotContract',
  t.type({
    contract_address: Address,
    transactions_count: Integer,
    total_gas_used: ExactInteger,
    balance: nullable(IntegerString),
  }),
);
