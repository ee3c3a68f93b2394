/** `token/getTokenHolders`: `contractaddress` → `[{address, value}]` by value desc, paged by `page`/`offset` (default 10). */
import type { CurrentTokenBalance } from '../../ports.ts';
import type { EtherscanAction } from '../action.ts';
import { none, ok } from '../action.ts';
import { collectWindow, one } from '../paging.ts';
import { addressParam, windowParam } from '../params.ts';
import { CONTRACTADDRESS, PAGING } from '../paramDocs.ts';

export const gettokenholders: EtherscanAction = {
  module: 'token',
  action: 'gettokenholders',
  summary: "A token's holders by balance",
  params: [CONTRACTADDRESS, ...PAGING],
  async run(ctx, query) {
    const token = addressParam(query, 'contractaddress');
    if ('error' in token) return token.error;
    const window = windowParam(query, 10);
    if ('error' in window) return window.error;
    const rows = await collectWindow<CurrentTokenBalance, CurrentTokenBalance>(
      (after, limit) => ctx.ds.listTokenHolders({ tokenAddress: token.value }, { after: after === null ? null : { value: after.value, holder: after.holder, tokenId: after.tokenId }, limit, order: 'desc' }),
      window.value,
      one,
    );
    if (rows.length === 0) return none('No token holders found');
    return ok(rows.map((b) => ({ address: b.holder, value: b.value.toString() })));
  },
};
