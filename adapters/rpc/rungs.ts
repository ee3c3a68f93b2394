/**
 * Frames and state diffs of a block on each rung of the tracing ladder (ladder.ts chooses it).
 * A rung answers for the whole block or throws — the indexer then holds the block and asks again —
 * so no block is ever stored with a partial trace or with two rungs mixed. The one exception is
 * the struct-log rung's size cap: a transaction whose opcode trace is larger than the cap takes
 * the whole block down to no frames, said in a line.
 */
import type { Address, Hash } from '../../lib/domain/records.ts';
import { SourceUnavailableError } from '../../lib/chain-source.ts';
import type { PrestateDiff, SourceBlock, SourceReceipt, TraceMode, TransactionTrace } from '../../lib/chain-source.ts';
import { FatalRpcError } from './errors.ts';
import { traceBlock, traceOne } from './traces.ts';
import type { TraceContext } from './traces.ts';
import { parseCallTrace, parsePrestateDiff, RpcShapeError, arr, big, obj, hex } from './parse.ts';
import { CALL_TRACER, PRESTATE_TRACER } from './ladder.ts';
import { parityCallTraces, parityStateDiff } from './parity.ts';
import { framesFromStructLogs } from './structlog.ts';
import { fetchStructLogs, TraceTooLargeError } from './structlogFetch.ts';

export interface RungContext extends TraceContext {
  /** the node's URL (the struct-log rung streams its answers itself) */
  readonly url: string;
  /** a call retried as the source's calls are */
  readonly retried: <T>(what: string, f: () => Promise<T>) => Promise<T>;
  /** the block's receipts (the struct-log rung needs the created address of a creation) */
  readonly receipts: (block: SourceBlock) => Promise<readonly SourceReceipt[]>;
  /** per-transaction traces of one block asked at once */
  readonly concurrency: number;
  /** the largest opcode trace read, bytes */
  readonly maxStructLogBytes: number;
  readonly timeoutMs: number;
}

const toHex = (n: number): string => `0x${n.toString(16)}`;

/** f over items, at most `limit` at a time, results in order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const hashesOf = (block: SourceBlock): Hash[] => block.transactions.map((t) => t.hash);

/** trace_replayBlockTransactions(["stateDiff"]) → one diff per transaction, in block order. */
function parityDiffs(hashes: readonly Hash[], result: unknown): PrestateDiff[] {
  const entries = arr(result, 'trace_replayBlockTransactions result');
  if (entries.length !== hashes.length) throw new RpcShapeError(`trace_replayBlockTransactions: ${entries.length} entries for ${hashes.length} transactions`);
  return entries.map((e, i) => {
    const o = obj(e, 'trace_replayBlockTransactions item');
    const hash = o.transactionHash === undefined || o.transactionHash === null ? (hashes[i] as Hash) : (hex(o.transactionHash, 'transactionHash').toLowerCase() as Hash);
    if (hash !== hashes[i]?.toLowerCase()) throw new RpcShapeError(`trace_replayBlockTransactions: entry ${i} is ${hash}, expected ${hashes[i] ?? 'none'}`);
    return parityStateDiff(hashes[i] as Hash, o.stateDiff);
  });
}

/**
 * Parity's diff says "=" of an unchanged balance (of an account whose storage or nonce changed),
 * where diffMode gives the balance in `pre`: it is read with eth_getBalance at the end of the
 * block. A balance no transaction of the block changed is the same there; one another
 * transaction changed is taken from that transaction's diff (coin balances take each account's
 * last change in the block, and a `pre` only where there is none).
 */
async function withUnchangedBalances(diffs: readonly PrestateDiff[], balanceOf: (address: Address) => Promise<bigint>): Promise<PrestateDiff[]> {
  const missing = [...new Set(diffs.flatMap((d) => [...d.pre].filter(([, state]) => state.balance === undefined).map(([address]) => address)))];
  if (missing.length === 0) return [...diffs];
  const read = await Promise.all(missing.map(balanceOf));
  const balances = new Map(missing.map((a, i) => [a, read[i] ?? 0n]));
  return diffs.map((d) => ({
    ...d,
    pre: new Map([...d.pre].map(([address, state]) => [address, state.balance === undefined ? { ...state, balance: balances.get(address) ?? 0n } : state])),
  }));
}

/** One struct-log trace at a time across the whole source: a trace's size is bounded, their number too. */
function createSerial(): <T>(f: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(f: () => Promise<T>): Promise<T> => {
    const run = tail.then(f, f);
    tail = run.catch(() => undefined);
    return run;
  };
}

export interface Rung {
  traceCalls(block: SourceBlock): Promise<readonly TransactionTrace[]>;
  tracePrestate(block: SourceBlock): Promise<readonly PrestateDiff[]>;
}

function blockRung(ctx: RungContext): Rung {
  return {
    traceCalls: (block) => traceBlock(ctx, block, CALL_TRACER, parseCallTrace),
    tracePrestate: (block) => traceBlock(ctx, block, PRESTATE_TRACER, parsePrestateDiff),
  };
}

function transactionRung(ctx: RungContext): Rung {
  const each = <T>(block: SourceBlock, tracer: Record<string, unknown>, parse: (hash: Hash, result: unknown) => T): Promise<T[]> =>
    mapLimit(hashesOf(block), ctx.concurrency, async (hash) => parse(hash, await traceOne(ctx, hash, tracer)));
  return {
    traceCalls: (block) => each(block, CALL_TRACER, parseCallTrace),
    tracePrestate: (block) => each(block, PRESTATE_TRACER, parsePrestateDiff),
  };
}

function parityRung(ctx: RungContext): Rung {
  return {
    async traceCalls(block) {
      if (block.transactions.length === 0) return [];
      // the top frame's gasUsed as callTracer gives it is the receipt's (Parity's leaves intrinsic gas out)
      const [result, receipts] = await Promise.all([ctx.call('trace_block', [toHex(block.number)]), ctx.receipts(block)]);
      return parityCallTraces(hashesOf(block), result, new Map(receipts.map((r) => [r.transactionHash.toLowerCase() as Hash, r.gasUsed])));
    },
    async tracePrestate(block) {
      if (block.transactions.length === 0) return [];
      const diffs = parityDiffs(hashesOf(block), await ctx.call('trace_replayBlockTransactions', [toHex(block.number), ['stateDiff']]));
      return withUnchangedBalances(diffs, (a) => ctx.call('eth_getBalance', [a, toHex(block.number)]).then((v) => big(v, 'eth_getBalance')));
    },
  };
}

function structLogRung(ctx: RungContext): Rung {
  const serial = createSerial();
  return {
    async traceCalls(block) {
      if (block.transactions.length === 0) return [];
      const receipts = await ctx.receipts(block);
      const out: TransactionTrace[] = [];
      for (const [i, tx] of block.transactions.entries()) {
        const receipt = receipts[i];
        if (receipt === undefined || receipt.transactionHash !== tx.hash) throw new RpcShapeError(`block ${block.number}: no receipt for ${tx.hash}`);
        try {
          const frame = await serial(async () =>
            framesFromStructLogs(tx, receipt, await ctx.retried(`debug_traceTransaction ${tx.hash}`, () => fetchStructLogs(ctx.url, tx.hash, { maxBytes: ctx.maxStructLogBytes, timeoutMs: ctx.timeoutMs }))),
          );
          out.push({ transactionHash: tx.hash, frame });
        } catch (e) {
          if (!(e instanceof TraceTooLargeError)) throw e;
          ctx.log(`block ${block.number}: ${e.message}; the block is stored without frames (no internal transactions for any of its ${block.transactions.length} transaction(s))`);
          return [];
        }
      }
      return out;
    },
    tracePrestate: () => Promise.reject(new Error('the struct-log rung gives no state diffs')),
  };
}

const NONE: Rung = {
  traceCalls: () => Promise.reject(new Error('the node traces nothing (trace mode none)')),
  tracePrestate: () => Promise.reject(new Error('the node traces nothing (trace mode none)')),
};

/**
 * A rung's failure holds its block: garbage, a refusal or an error for some transaction becomes a
 * SourceUnavailableError, so the indexer stores nothing of the block and asks again (a node
 * that refuses us stays fatal).
 */
function holding(mode: TraceMode, rung: Rung): Rung {
  const hold =
    <T>(what: string, f: (block: SourceBlock) => Promise<T>) =>
    async (block: SourceBlock): Promise<T> => {
      try {
        return await f(block);
      } catch (e) {
        if (e instanceof SourceUnavailableError || e instanceof FatalRpcError) throw e;
        const message = e instanceof Error ? e.message : String(e);
        throw new SourceUnavailableError(`block ${block.number}: the ${mode} rung's ${what} failed (${message})`, 'unavailable', { cause: e });
      }
    };
  return { traceCalls: hold('frames', (b) => rung.traceCalls(b)), tracePrestate: hold('state diffs', (b) => rung.tracePrestate(b)) };
}

function rungOf(mode: TraceMode, ctx: RungContext): Rung {
  switch (mode) {
    case 'block':
      return blockRung(ctx);
    case 'transaction':
      return transactionRung(ctx);
    case 'parity':
      return parityRung(ctx);
    case 'structlog':
      return structLogRung(ctx);
    case 'none':
      return NONE;
  }
}

export function createRung(mode: TraceMode, ctx: RungContext): Rung {
  return mode === 'none' ? NONE : holding(mode, rungOf(mode, ctx));
}
