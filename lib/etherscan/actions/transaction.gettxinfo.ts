/**
 * `transaction/gettxinfo`: `txhash` → the transaction with its logs, 50 per page (`index`: the
 * log index to continue after, from `next_page_params`). Unknown → "Transaction not found".
 */
import type { EtherscanAction } from '../action.ts';
import { fail, ok } from '../action.ts';
import { nonNegative, param, txHashParam } from '../params.ts';
import { confirmations, headOf, str } from '../rows.ts';
import { TXHASH } from '../paramDocs.ts';

export const TX_INFO_LOGS = 50;

export const gettxinfo: EtherscanAction = {
  module: 'transaction',
  action: 'gettxinfo',
  summary: 'A transaction with its logs',
  params: [TXHASH, { name: 'index', description: 'The log index to continue after (next_page_params)' }],
  async run(ctx, query) {
    const hash = txHashParam(query);
    if ('error' in hash) return hash.error;
    const tx = await ctx.ds.getTransaction(hash.value);
    if (tx === null) return fail('Transaction not found');
    const index = nonNegative(param(query, 'index'), Number.MAX_SAFE_INTEGER);
    const [head, logs] = await Promise.all([
      headOf(ctx.ds),
      ctx.ds.listLogs({ transactionHash: tx.hash }, { after: index === undefined ? null : { blockNumber: tx.blockNumber ?? 0, index }, limit: TX_INFO_LOGS + 1, order: 'asc' }),
    ]);
    const page = logs.slice(0, TX_INFO_LOGS);
    const last = page[page.length - 1];
    return ok({
      hash: tx.hash,
      timeStamp: str(tx.timestamp),
      blockNumber: str(tx.blockNumber),
      confirmations: confirmations(head, tx.blockNumber),
      success: tx.status === 'ok',
      from: tx.from,
      to: str(tx.to ?? tx.createdContract),
      value: str(tx.value),
      input: tx.input,
      gasLimit: str(tx.gas),
      gasUsed: str(tx.gasUsed),
      gasPrice: str(tx.gasPrice),
      logs: page.map((l) => ({ address: l.address, topics: [...l.topics], data: l.data, index: String(l.index) })),
      revertReason: str(tx.revertReason ?? tx.error),
      next_page_params: logs.length > TX_INFO_LOGS && last !== undefined ? { action: 'gettxinfo', index: last.index, module: 'transaction', txhash: tx.hash } : null,
    });
  },
};
