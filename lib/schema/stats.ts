/** Bodies of the home page's counters and charts (main page, stats). */
import * as t from 'io-ts';
import { withSchema } from '../openapi/jsonSchema.ts';
import { emptyList } from './scalars.ts';

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
