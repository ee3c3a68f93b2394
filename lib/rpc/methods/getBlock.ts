/** The body of `eth_getBlockByNumber` and `eth_getBlockByHash`: a consensus block, its transactions as hashes or in full. */
import type { JsonValue } from '../../json.ts';
import type { RpcContext } from '../context.ts';
import { renderBlock, renderTransaction } from '../format.ts';
import type { BlockSpec } from '../params.ts';
import { bool } from '../params.ts';
import type { RpcOutcome } from '../protocol.ts';
import { invalidParams } from '../protocol.ts';
import { blockTransactions, resolveBlock } from '../store.ts';

export async function getBlock(ctx: RpcContext, spec: BlockSpec, fullParam: unknown): Promise<RpcOutcome> {
  const full = bool(fullParam ?? false, 'full transactions flag');
  if (!full.ok) return invalidParams(full.message);
  const block = await resolveBlock(ctx.ds, spec);
  if (block === null) return { result: null };
  const txs = await blockTransactions(ctx.ds, block);
  const rendered: JsonValue[] = full.value ? txs.map((tx) => renderTransaction(tx, ctx.chainId)) : txs.map((tx) => tx.hash);
  return { result: renderBlock(block, rendered) };
}
