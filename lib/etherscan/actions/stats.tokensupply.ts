/**
 * `stats/tokensupply`: `contractaddress` → the token's total supply (raw units, a string); with
 * `cmc=true` a text/plain body: the supply in whole tokens, 9 decimals.
 */
import type { EtherscanAction } from '../action.ts';
import { fail, ok } from '../action.ts';
import { addressParam, param } from '../params.ts';
import { CONTRACTADDRESS } from '../paramDocs.ts';

/** supply / 10^decimals, rounded half up to 9 decimals, as text. */
export function inWholeTokens(supply: bigint, decimals: bigint): string {
  const scale = 10n ** decimals;
  const scaled = decimals >= 9n ? (supply * 10n ** 9n * 2n + scale) / (2n * scale) : supply * 10n ** (9n - decimals);
  const s = scaled.toString().padStart(10, '0');
  return `${s.slice(0, -9)}.${s.slice(-9)}`;
}

export const tokensupply: EtherscanAction = {
  module: 'stats',
  action: 'tokensupply',
  summary: "A token's total supply",
  params: [CONTRACTADDRESS, { name: 'cmc', description: '`true`: whole tokens as text/plain', enum: ['true', 'false'] }],
  async run(ctx, query) {
    const address = addressParam(query, 'contractaddress');
    if ('error' in address) return address.error;
    const token = await ctx.ds.getToken(address.value);
    if (token === null) return fail('Contract address not found');
    if (param(query, 'cmc')?.toLowerCase() === 'true') {
      const text = inWholeTokens(token.totalSupply ?? 0n, token.decimals ?? 0n);
      return { status: 200, body: text, text };
    }
    return ok(token.totalSupply === null ? null : token.totalSupply.toString());
  },
};
