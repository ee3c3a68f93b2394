/**
 * `account/tokenlist`: the tokens `address` holds (current balances > 0), by value desc, paged by
 * `page`/`offset`: `[{balance, contractAddress, name, decimals, symbol, type, id?}]` (`id` for
 * balances held per id).
 */
import type { CurrentTokenBalance } from '../../ports.ts';
import type { EtherscanAction } from '../action.ts';
import { none, ok } from '../action.ts';
import { collectWindow, one } from '../paging.ts';
import { addressParam, windowParam } from '../params.ts';
import { str, tokensOf } from '../rows.ts';
import { ADDRESS, PAGING } from '../paramDocs.ts';

export const tokenlist: EtherscanAction = {
  module: 'account',
  action: 'tokenlist',
  summary: 'The tokens an address holds',
  params: [ADDRESS, ...PAGING],
  async run(ctx, query) {
    const holder = addressParam(query);
    if ('error' in holder) return holder.error;
    const window = windowParam(query);
    if ('error' in window) return window.error;
    const rows = await collectWindow<CurrentTokenBalance, CurrentTokenBalance>(
      (after, limit) => ctx.ds.listTokenBalances({ holder: holder.value }, { after: after === null ? null : { value: after.value, tokenAddress: after.tokenAddress, tokenId: after.tokenId }, limit, order: 'desc' }),
      window.value,
      one,
    );
    if (rows.length === 0) return none('No tokens found');
    const tokens = await tokensOf(ctx.ds, rows.map((b) => b.tokenAddress));
    return ok(
      rows.map((b) => {
        const t = tokens.get(b.tokenAddress);
        return {
          balance: str(b.value),
          contractAddress: b.tokenAddress,
          name: str(t?.name),
          decimals: str(t?.decimals),
          symbol: str(t?.symbol),
          type: b.tokenType,
          ...(b.tokenId !== null ? { id: str(b.tokenId) } : {}),
        };
      }),
    );
  },
};
