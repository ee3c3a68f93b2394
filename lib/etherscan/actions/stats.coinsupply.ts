/**
 * `stats/coinsupply`: the coin supply less the zero address's balance, in whole coins. As
 * Blockscout's, the body is a bare JSON number (no `{status, message, result}` envelope): the
 * exact decimal (wei / 10^18) parsed as a float, so a supply beyond ~15 significant digits is
 * rounded as Blockscout's is.
 */
import type { EtherscanAction } from '../action.ts';

/** wei as an exact decimal string of whole coins (no trailing zeros, no exponent). */
export function weiToCoins(wei: bigint): string {
  const negative = wei < 0n;
  const digits = (negative ? -wei : wei).toString().padStart(19, '0');
  const whole = digits.slice(0, -18);
  const fraction = digits.slice(-18).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

export const coinsupply: EtherscanAction = {
  module: 'stats',
  action: 'coinsupply',
  summary: 'The coin supply in whole coins (a bare number)',
  params: [],
  shape: 'bare',
  async run(ctx) {
    const c = await ctx.ds.getChainCounters();
    const burnt = c.zeroAddressCoinBalance > 0n ? c.zeroAddressCoinBalance : 0n;
    return { status: 200, body: Number.parseFloat(weiToCoins(c.coinSupply - burnt)) };
  },
};
