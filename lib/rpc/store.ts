/**
 * The store reads the JSON-RPC methods share: a block spec resolved to a stored block, the
 * transactions of a block in order, and logs by block range, address and topics.
 */
import type { BlockRecord, Hex, LogRecord, TransactionRecord } from '../domain/records.ts';
import type { DataSource } from '../ports.ts';
import type { BlockSpec, TopicFilter } from './params.ts';

/** The store's head for `latest`, `safe`, `finalized` and `pending` (the store has no pending block). */
export async function resolveNumber(ds: DataSource, spec: BlockSpec): Promise<number | null> {
  switch (spec.kind) {
    case 'number':
      return spec.number;
    case 'hash': {
      const block = await ds.getBlock({ hash: spec.hash });
      return block === null || !block.consensus ? null : block.number;
    }
    case 'tag':
      return spec.tag === 'earliest' ? 0 : ds.getHighestBlockNumber();
  }
}

/** The consensus block a spec names, or null (a node knows nothing of blocks that lost consensus). */
export async function resolveBlock(ds: DataSource, spec: BlockSpec): Promise<BlockRecord | null> {
  const block =
    spec.kind === 'hash' ? await ds.getBlock({ hash: spec.hash }) : await resolveNumber(ds, spec).then((n) => (n === null ? null : ds.getBlock({ number: n })));
  return block !== null && block.consensus ? block : null;
}

/**
 * Transactions of consensus blocks `from`..`to` in chain order, read from the top with one
 * query: at most `limit` of them (the caller learns it was cut when it gets `limit` back).
 */
export async function transactionsInRange(ds: DataSource, from: number, to: number, limit: number): Promise<readonly TransactionRecord[]> {
  if (limit <= 0 || to < from) return [];
  const rows = await ds.listTransactions({ status: 'validated' }, { after: { blockNumber: to + 1, index: 0 }, limit, order: 'desc' });
  return rows.filter((tx) => tx.blockNumber !== null && tx.blockNumber >= from).reverse();
}

/** All transactions of a consensus block, by index. */
export async function blockTransactions(ds: DataSource, block: BlockRecord): Promise<readonly TransactionRecord[]> {
  const rows = await transactionsInRange(ds, block.number, block.number, block.transactionsCount);
  return rows.filter((tx) => tx.blockHash === block.hash);
}

/** The gas a block used up to and including the transaction at `index`. */
export async function cumulativeGasUsed(ds: DataSource, blockNumber: number, index: number): Promise<bigint> {
  const rows = await ds.listTransactions({ status: 'validated' }, { after: { blockNumber, index: index + 1 }, limit: index + 1, order: 'desc' });
  return rows.filter((tx) => tx.blockNumber === blockNumber).reduce((sum, tx) => sum + (tx.gasUsed ?? 0n), 0n);
}

/**
 * The bounds of `eth_getLogs`: a range of at most MAX_LOG_BLOCK_RANGE blocks, holding at most
 * MAX_LOG_TRANSACTIONS transactions, answering at most MAX_LOG_RESULTS logs. Beyond them the
 * call gets -32005 "limit exceeded" and the client narrows its range (as with hosted nodes).
 */
export const MAX_LOG_BLOCK_RANGE = 10_000;
export const MAX_LOG_TRANSACTIONS = 2_000;
export const MAX_LOG_RESULTS = 10_000;

export interface LogQuery {
  readonly from: number;
  readonly to: number;
  /** any of these emitters; empty = any */
  readonly addresses: readonly Hex[];
  readonly topics: TopicFilter;
}

export type LogAnswer = { readonly logs: readonly LogRecord[] } | { readonly tooMany: string };

/**
 * Logs by block range, emitter and topics. Today's ports list logs per transaction only, so this
 * lists the range's transactions (one query) and their logs (one query each, in parallel),
 * bounded as above; a log filter on the port (by emitter and block range) replaces both.
 */
export async function findLogs(ds: DataSource, query: LogQuery): Promise<LogAnswer> {
  if (query.to - query.from + 1 > MAX_LOG_BLOCK_RANGE) return { tooMany: `block range too large: at most ${MAX_LOG_BLOCK_RANGE} blocks` };
  const txs = await transactionsInRange(ds, query.from, query.to, MAX_LOG_TRANSACTIONS + 1);
  if (txs.length > MAX_LOG_TRANSACTIONS) {
    return { tooMany: `query spans more than ${MAX_LOG_TRANSACTIONS} transactions: narrow the block range` };
  }
  const perTx = await Promise.all(txs.map((tx) => ds.listLogs({ transactionHash: tx.hash }, { after: null, limit: MAX_LOG_RESULTS + 1, order: 'asc' })));
  const logs = perTx.flat().filter((log) => matches(log, query));
  if (logs.length > MAX_LOG_RESULTS) return { tooMany: `query returned more than ${MAX_LOG_RESULTS} results` };
  return { logs: logs.sort((a, b) => a.blockNumber - b.blockNumber || a.index - b.index) };
}

function matches(log: LogRecord, query: LogQuery): boolean {
  if (query.addresses.length > 0 && !query.addresses.includes(log.address)) return false;
  return query.topics.every((alts, i) => alts === null || (log.topics[i] !== undefined && alts.includes(log.topics[i] as Hex)));
}
