/** `transaction/getstatus`: `txhash` → `{isError: "0"|"1", errDescription}` (unknown: "0" and ""). */
import type { EtherscanAction } from '../action.ts';
import { ok } from '../action.ts';
import { txHashParam } from '../params.ts';
import { isError, str } from '../rows.ts';
import { TXHASH } from '../paramDocs.ts';

export const getstatus: EtherscanAction = {
  module: 'transaction',
  action: 'getstatus',
  summary: 'Whether a transaction failed, and why',
  params: [TXHASH],
  async run(ctx, query) {
    const hash = txHashParam(query);
    if ('error' in hash) return hash.error;
    const tx = await ctx.ds.getTransaction(hash.value);
    return ok({ isError: tx === null ? '0' : isError(tx), errDescription: tx === null || tx.status !== 'error' ? '' : str(tx.error) });
  },
};
