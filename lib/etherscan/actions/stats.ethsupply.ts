/**
 * `stats/ethsupply`: Σ of every positive current coin balance, in wei (a string), as Blockscout's
 * (its cached sum of the addresses' fetched balances). The store keeps the sum as blocks are
 * written and rolled back (ChainCounters.coinSupply), so this is one constant-cost read.
 */
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';

export const ethsupply: EtherscanAction = {
  module: 'stats',
  action: 'ethsupply',
  summary: 'The coin supply in wei',
  params: [],
  async run(ctx) {
    const counters = await ctx.ds.getChainCounters();
    return ok(counters.coinSupply.toString());
  },
};
