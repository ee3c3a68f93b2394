/**
 * `stats/coinprice` (and Blockscout's undocumented twin `ethprice`, keys prefixed `eth`): the
 * coin's BTC and USD rates with their update time. The store holds no market data (as `/stats`
 * answers `coin_price: null`), so every value is null — Blockscout's answer without a market
 * source.
 */
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';

function pricesAction(action: string, prefix: string): EtherscanAction {
  return {
    module: 'stats',
    action,
    summary: `The coin's price in BTC and USD (null: no market data)${prefix === 'eth' ? ", Blockscout's older name" : ''}`,
    params: [],
    async run() {
      return ok({ [`${prefix}btc`]: null, [`${prefix}btc_timestamp`]: null, [`${prefix}usd`]: null, [`${prefix}usd_timestamp`]: null });
    },
  };
}

export const coinprice = pricesAction('coinprice', 'coin_');
export const ethprice = pricesAction('ethprice', 'eth');
