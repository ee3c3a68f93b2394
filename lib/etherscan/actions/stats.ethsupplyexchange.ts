/**
 * `stats/ethsupplyexchange`: Blockscout answers the market's total supply (× 10^18); the store
 * holds no market data, so the result is null (as Blockscout's with no market source).
 */
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';

export const ethsupplyexchange: EtherscanAction = {
  module: 'stats',
  action: 'ethsupplyexchange',
  summary: 'The coin supply as the market counts it (null: no market data)',
  params: [],
  async run() {
    return ok(null);
  },
};
