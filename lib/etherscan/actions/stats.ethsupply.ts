/**
 * `stats/ethsupply`: Blockscout sums every positive balance (a cached full-table aggregate). The
 * ports hold no such total and a request never scans the chain, so this answers status "0"
 * with a message saying so.
 */
import type { EtherscanAction } from '../action.ts';
import { fail } from '../action.ts';

export const ETH_SUPPLY_MESSAGE = 'Total supply is not available: this explorer keeps no total of balances';

export const ethsupply: EtherscanAction = {
  module: 'stats',
  action: 'ethsupply',
  async run() {
    return fail(ETH_SUPPLY_MESSAGE);
  },
};
