/**
 * `eth_getLogs`: logs of consensus blocks by `blockHash` or `fromBlock`/`toBlock` (default
 * latest; a bound above the head is the head), emitter `address` (one or a list) and `topics`
 * (per position: null, a topic, or a list of alternatives). Bounded: see lib/rpc/store.ts.
 */
import type { Hex } from '../../domain/records.ts';
import type { RpcMethod } from '../context.ts';
import { renderLog } from '../format.ts';
import { address, blockSpec, hash, topics } from '../params.ts';
import { invalidParams, RPC_CODES, rpcError } from '../protocol.ts';
import { findLogs, MAX_LOG_BLOCK_RANGE, resolveNumber } from '../store.ts';

export const eth_getLogs: RpcMethod = {
  name: 'eth_getLogs',
  async run(ctx, params) {
    const filter = params[0];
    if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return invalidParams('expected a filter object');
    const f = filter as Record<string, unknown>;
    const addresses: Hex[] = [];
    for (const a of f.address === undefined || f.address === null ? [] : Array.isArray(f.address) ? (f.address as unknown[]) : [f.address]) {
      const d = address(a);
      if (!d.ok) return invalidParams(d.message);
      addresses.push(d.value);
    }
    const t = topics(f.topics);
    if (!t.ok) return invalidParams(t.message);
    const head = await ctx.ds.getHighestBlockNumber();
    let from: number | null;
    let to: number | null;
    if (f.blockHash !== undefined) {
      if (f.fromBlock !== undefined || f.toBlock !== undefined) return invalidParams('give blockHash or fromBlock/toBlock, not both');
      const h = hash(f.blockHash, 'blockHash');
      if (!h.ok) return invalidParams(h.message);
      const block = await ctx.ds.getBlock({ hash: h.value });
      if (block === null || !block.consensus) return rpcError(RPC_CODES.serverError, 'unknown block');
      from = to = block.number;
    } else {
      const fromSpec = blockSpec(f.fromBlock, 'fromBlock');
      if (!fromSpec.ok) return invalidParams(fromSpec.message);
      const toSpec = blockSpec(f.toBlock, 'toBlock');
      if (!toSpec.ok) return invalidParams(toSpec.message);
      [from, to] = await Promise.all([resolveNumber(ctx.ds, fromSpec.value), resolveNumber(ctx.ds, toSpec.value)]);
      if (from !== null && to !== null && from > to) return invalidParams('invalid block range: fromBlock is after toBlock');
    }
    // the range asked for is bounded, even where it reaches past the store's head
    if (from !== null && to !== null && to - from + 1 > MAX_LOG_BLOCK_RANGE) return rpcError(RPC_CODES.limitExceeded, `block range too large: at most ${MAX_LOG_BLOCK_RANGE} blocks`);
    if (head === null || from === null || to === null) return { result: [] };
    const answer = await findLogs(ctx.ds, { from, to: Math.min(to, head), addresses, topics: t.value });
    if ('tooMany' in answer) return rpcError(RPC_CODES.limitExceeded, answer.tooMany);
    return { result: answer.logs.map(renderLog) };
  },
};
