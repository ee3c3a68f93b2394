/** `account/balancemulti`: `address` (comma list ≤ 20) → `[{account, balance, stale}]` (stale is always false: balances come from the indexer). */
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { addressList } from '../params.ts';
import { balanceRows } from './balances.ts';
import { ADDRESS_LIST } from '../paramDocs.ts';

export const balancemulti: EtherscanAction = {
  module: 'account',
  action: 'balancemulti',
  summary: 'The coin balances of up to 20 addresses, in wei',
  params: [ADDRESS_LIST, { name: 'tag', description: 'Accepted and ignored: the balances at the head' }],
  async run(ctx, query) {
    const list = addressList(query);
    if ('error' in list) return list.error;
    return ok(await balanceRows(ctx.ds, list.value));
  },
};
