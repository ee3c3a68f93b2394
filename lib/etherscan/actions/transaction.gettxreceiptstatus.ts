/** `transaction/gettxreceiptstatus`: `txhash` → `{status: "1"|"0"|""}` ("" for unknown or pending). */
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { txHashParam } from '../params.ts';
import { receiptStatus } from '../rows.ts';
import { TXHASH } from '../paramDocs.ts';

export const gettxreceiptstatus: EtherscanAction = {
  module: 'transaction',
  action: 'gettxreceiptstatus',
  summary: "A transaction's receipt status",
  params: [TXHASH],
  async run(ctx, query) {
    const hash = txHashParam(query);
    if ('error' in hash) return hash.error;
    const tx = await ctx.ds.getTransaction(hash.value);
    return ok({ status: tx === null ? '' : receiptStatus(tx) });
  },
};
