/** `account/balancemulti`: `address` (comma list ≤ 20) → `[{account, balance, stale}]` (stale is always false: balances come from the indexer). */
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { addressList } from '../params.ts';
import { balanceRows } from './balances.ts';

export const balancemulti: EtherscanAction = {
  module: 'account',
  action: 'balancemulti',
  async run(ctx, query) {
    const list = addressList(query);
    if ('error' in list) return list.error;
    return ok(await balanceRows(ctx.ds, list.value));
  },
};
