/** `account/pendingtxlist`: the pending transactions from or to `address`, newest first, paged by `page`/`offset`. */
import type { TransactionRecord } from '../../domain/records.ts';
import type { EtherscanAction } from '../action.ts';
import { none, ok } from '../action.ts';
import { collectWindow, one } from '../paging.ts';
import { addressParam, windowParam } from '../params.ts';
import { str } from '../rows.ts';
import { ADDRESS, PAGING } from '../paramDocs.ts';

export const pendingtxlist: EtherscanAction = {
  module: 'account',
  action: 'pendingtxlist',
  summary: 'The pending transactions from or to an address',
  params: [ADDRESS, ...PAGING],
  async run(ctx, query) {
    const address = addressParam(query);
    if ('error' in address) return address.error;
    const window = windowParam(query);
    if ('error' in window) return window.error;
    const txs = await collectWindow<TransactionRecord, TransactionRecord>(
      (after, limit) =>
        ctx.ds.listTransactions({ status: 'pending', address: address.value }, { after: after === null ? null : { insertedAt: after.insertedAt, hash: after.hash }, limit, order: 'desc' }),
      window.value,
      one,
    );
    if (txs.length === 0) return none('No transactions found');
    return ok(
      txs.map((tx) => ({
        hash: tx.hash,
        nonce: str(tx.nonce),
        from: tx.from,
        to: str(tx.to),
        value: str(tx.value),
        gas: str(tx.gas),
        gasPrice: str(tx.gasPrice),
        input: tx.input,
        contractAddress: str(tx.createdContract),
        cumulativeGasUsed: '',
        gasUsed: '',
      })),
    );
  },
};
