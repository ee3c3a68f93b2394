/**
 * `account/txlistinternal`: the internal transactions of `txhash`, or from/to/creating
 * `address`, or (neither) all of them; by block, transaction index, trace index (`sort`,
 * default desc) within `startblock`..`endblock`, paged by `page`/`offset`. Zero-value ones are
 * left out unless `include_zero_value=true`. Top-level calls are not internal transactions.
 */
import type { InternalTransactionRecord } from '../../domain/records.ts';
import type { InternalTransactionFilter } from '../../ports.ts';
import type { EtherscanAction } from '../action.ts';
import { none, ok } from '../action.ts';
import { collectWindow } from '../paging.ts';
import { blockRange, optionalAddress, param, sortParam, txHashParam, windowParam } from '../params.ts';
import { str } from '../rows.ts';
import { LISTING, OPTIONAL_ADDRESS, TXHASH } from '../paramDocs.ts';

const CALL_TYPES = new Set(['call', 'callcode', 'delegatecall', 'staticcall']);

export const txlistinternal: EtherscanAction = {
  module: 'account',
  action: 'txlistinternal',
  summary: 'The internal transactions of a transaction, of an address, or all',
  params: [{ name: 'txhash', description: TXHASH.description, example: 'transaction' }, OPTIONAL_ADDRESS, { name: 'include_zero_value', description: 'Also those moving no value', enum: ['true', 'false'] }, ...LISTING],
  async run(ctx, query) {
    const hash = param(query, 'txhash') === undefined ? { value: undefined } : txHashParam(query);
    if ('error' in hash) return hash.error;
    const address = optionalAddress(query, 'address');
    if ('error' in address) return address.error;
    const window = windowParam(query);
    if ('error' in window) return window.error;
    const withZero = param(query, 'include_zero_value')?.toLowerCase() === 'true';
    const filter: InternalTransactionFilter = {
      ...(hash.value !== undefined ? { transactionHash: hash.value } : address.value !== undefined ? { address: address.value } : {}),
      blocks: blockRange(query),
    };
    const order = sortParam(query);
    const rows = await collectWindow<InternalTransactionRecord, InternalTransactionRecord>(
      (after, limit) => ctx.ds.listInternalTransactions(filter, { after: after === null ? null : { blockNumber: after.blockNumber, transactionIndex: after.transactionIndex, index: after.index }, limit, order }),
      window.value,
      (it) => (withZero || it.value > 0n ? [it] : []),
    );
    if (rows.length === 0) return none('No internal transactions found');
    return ok(
      rows.map((it) => ({
        blockNumber: str(it.blockNumber),
        timeStamp: str(it.timestamp),
        from: it.from,
        to: str(it.to),
        value: str(it.value),
        contractAddress: str(it.createdContract),
        transactionHash: it.transactionHash,
        index: str(it.index),
        input: '',
        type: CALL_TYPES.has(it.type) ? 'call' : it.type,
        callType: CALL_TYPES.has(it.type) ? it.type : '',
        gas: str(it.gas),
        gasUsed: str(it.gasUsed),
        isError: it.error === null ? '0' : '1',
        errCode: str(it.error),
      })),
    );
  },
};
