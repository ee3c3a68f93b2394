/**
 * `account/balance`: `address` (a comma list of ≤ 20) → the current balance in wei as a string
 * ("0" for an address never seen); several addresses answer as `balancemulti`. `tag` is
 * accepted and ignored: the store answers its head.
 */
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { addressList } from '../params.ts';
import { balanceRows, currentBalance } from './balances.ts';
import { ADDRESS_LIST } from '../paramDocs.ts';

export const balance: EtherscanAction = {
  module: 'account',
  action: 'balance',
  summary: 'The coin balance of an address (several: as balancemulti), in wei',
  params: [ADDRESS_LIST, { name: 'tag', description: 'Accepted and ignored: the balance at the head' }],
  async run(ctx, query) {
    const list = addressList(query);
    if ('error' in list) return list.error;
    const [only] = list.value;
    if (list.value.length === 1 && only !== undefined) return ok((await currentBalance(ctx.ds, only)).toString());
    return ok(await balanceRows(ctx.ds, list.value));
  },
};
