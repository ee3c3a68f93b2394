/**
 * `account/tokenbalance`: `contractaddress` and `address` → the holder's current balance of that
 * token (summed over its ids for ERC-1155/404), "0" when none. Read from the holder's balances
 * (bounded walk, see paging.ts).
 */
import type { CurrentTokenBalance } from '../../ports.ts';
import type { EtherscanAction } from '../action.ts';
import { fail, ok } from '../action.ts';
import { collectWindow, MAX_SCANNED } from '../paging.ts';
import { addressParam, param } from '../params.ts';
import { ADDRESS, CONTRACTADDRESS } from '../paramDocs.ts';

export const tokenbalance: EtherscanAction = {
  module: 'account',
  action: 'tokenbalance',
  summary: 'The balance an address holds of a token',
  params: [CONTRACTADDRESS, ADDRESS],
  async run(ctx, query) {
    const missing = ['contractaddress', 'address'].filter((n) => param(query, n) === undefined);
    if (missing.length > 0) return fail(`Required query parameters missing: ${missing.join(', ')}`);
    const token = addressParam(query, 'contractaddress');
    if ('error' in token) return token.error;
    const holder = addressParam(query, 'address');
    if ('error' in holder) return holder.error;
    const rows = await collectWindow<CurrentTokenBalance, CurrentTokenBalance>(
      (after, limit) => ctx.ds.listTokenBalances({ holder: holder.value }, { after: after === null ? null : { value: after.value, tokenAddress: after.tokenAddress, tokenId: after.tokenId }, limit, order: 'desc' }),
      { skip: 0, take: MAX_SCANNED },
      (b) => (b.tokenAddress === token.value ? [b] : []),
    );
    return ok(rows.reduce((sum, b) => sum + b.value, 0n).toString());
  },
};
