/**
 * `account/txlist`: the consensus transactions from, to or creating `address` (`filter_by`
 * `from`|`to` narrows it), by block then index (`sort`, default desc), within
 * `startblock`..`endblock` and `start_timestamp`..`end_timestamp` (unix seconds, both
 * inclusive; turned into blocks by time), paged by `page`/`offset`. Rows carry Etherscan's
 * `methodId` and `functionName` ("" for a method no ABI decodes).
 */
import type { TransactionRecord } from '../../domain/records.ts';
import type { BlockRange, Direction } from '../../ports.ts';
import type { EtherscanAction } from '../action.ts';
import { none, ok } from '../action.ts';
import { collectWindow, one } from '../paging.ts';
import { addressParam, blockRange, nonNegative, param, sortParam, windowParam } from '../params.ts';
import { confirmations, cumulativeGas, decodeContextOf, functionNameOf, gasKey, headOf, isError, methodIdOf, receiptStatus, str } from '../rows.ts';
import { firstAtOrAfter, lastAtOrBefore } from './blocktime.ts';
import { ADDRESS, LISTING } from '../paramDocs.ts';

/** `startblock`/`endblock` narrowed by `start_timestamp`/`end_timestamp`; null when nothing can match. */
async function blocksOf(ds: Parameters<EtherscanAction['run']>[0]['ds'], query: Parameters<EtherscanAction['run']>[1]): Promise<BlockRange | null> {
  const range = blockRange(query);
  const start = nonNegative(param(query, 'start_timestamp'), Number.MAX_SAFE_INTEGER);
  const end = nonNegative(param(query, 'end_timestamp'), Number.MAX_SAFE_INTEGER);
  let from = range.from;
  let to = range.to;
  if (start !== undefined) {
    const first = await firstAtOrAfter(ds, start);
    if (first === null) return null;
    from = Math.max(from ?? 0, first.number);
  }
  if (end !== undefined) {
    const last = await lastAtOrBefore(ds, end);
    if (last === null) return null;
    to = Math.min(to ?? last.number, last.number);
  }
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

export const txlist: EtherscanAction = {
  module: 'account',
  action: 'txlist',
  summary: 'The transactions from, to or creating an address',
  params: [ADDRESS, { name: 'filter_by', description: 'Only those `from` or `to` the address', enum: ['from', 'to'] }, { name: 'start_timestamp', description: 'From this time (unix seconds)' }, { name: 'end_timestamp', description: 'Up to this time (unix seconds)' }, ...LISTING],
  async run(ctx, query) {
    const address = addressParam(query);
    if ('error' in address) return address.error;
    const window = windowParam(query);
    if ('error' in window) return window.error;
    const filterBy = param(query, 'filter_by')?.toLowerCase();
    const direction: Direction = filterBy === 'from' ? 'from' : filterBy === 'to' ? 'to' : 'any';
    const blocks = await blocksOf(ctx.ds, query);
    if (blocks === null) return none('No transactions found');
    const filter = { status: 'validated', address: address.value, direction, blocks } as const;
    const order = sortParam(query);
    const txs = await collectWindow<TransactionRecord, TransactionRecord>(
      (after, limit) =>
        ctx.ds.listTransactions(filter, { after: after === null ? null : { blockNumber: after.blockNumber ?? 0, index: after.index ?? 0 }, limit, order }),
      window.value,
      one,
    );
    if (txs.length === 0) return none('No transactions found');
    const [head, gas, dc] = await Promise.all([
      headOf(ctx.ds),
      cumulativeGas(ctx.ds, txs.map((tx) => ({ blockNumber: tx.blockNumber ?? 0, index: tx.index ?? 0 }))),
      decodeContextOf(ctx, txs),
    ]);
    return ok(
      txs.map((tx) => ({
        blockNumber: str(tx.blockNumber),
        timeStamp: str(tx.timestamp),
        hash: tx.hash,
        nonce: str(tx.nonce),
        blockHash: str(tx.blockHash),
        transactionIndex: str(tx.index),
        from: tx.from,
        to: str(tx.to),
        value: str(tx.value),
        gas: str(tx.gas),
        gasPrice: str(tx.gasPrice),
        isError: isError(tx),
        txreceipt_status: receiptStatus(tx),
        input: tx.input,
        contractAddress: str(tx.createdContract),
        cumulativeGasUsed: str(gas.get(gasKey(tx.blockNumber, tx.index))),
        gasUsed: str(tx.gasUsed),
        confirmations: confirmations(head, tx.blockNumber),
        methodId: methodIdOf(tx),
        functionName: functionNameOf(tx, dc),
      })),
    );
  },
};
