/** Shared pieces of the indexer tests: a recording/crashing sink, raw RPC, quiet indexers. */
import type { BlockBundle, Hex } from '../../lib/domain/records.ts';
import { address, hex } from '../../lib/domain/hex.ts';
import type { DataSink } from '../../lib/ports.ts';
import { createIndexer } from '../../lib/indexer/index.ts';
import type { Indexer, IndexerEvent } from '../../lib/indexer/index.ts';
import { createRpcChainSource } from '../../adapters/rpc/index.ts';

export class CrashError extends Error {
  override readonly name = 'CrashError';
}

export interface RecordingSink extends DataSink {
  readonly bundles: BlockBundle[];
  writes: number;
}

/**
 * A sink that passes everything through, records the bundles written, and (with crashAfter)
 * throws instead of performing write number crashAfter + 1 — a crash between two batches.
 */
export function recordingSink(inner: DataSink, options: { crashAfter?: number } = {}): RecordingSink {
  const sink: RecordingSink = {
    bundles: [],
    writes: 0,
    async writeBlocks(bundles) {
      if (options.crashAfter !== undefined && sink.writes >= options.crashAfter) throw new CrashError(`crash before write ${sink.writes + 1}`);
      await inner.writeBlocks(bundles);
      sink.writes++;
      sink.bundles.push(...bundles);
    },
    writePendingTransactions: (txs) => inner.writePendingTransactions(txs),
    rollbackAbove: async (height) => {
      await inner.rollbackAbove(height);
      const keep = sink.bundles.filter((b) => b.block.number <= height);
      sink.bundles.length = 0;
      sink.bundles.push(...keep);
    },
    getIndexedHead: () => inner.getIndexedHead(),
    getChainIdentity: () => inner.getChainIdentity(),
    setChainIdentity: (identity) => inner.setChainIdentity(identity),
  };
  return sink;
}

export function indexerFor(rpcUrl: string, sink: DataSink, options: { batchSize?: number; events?: IndexerEvent[]; logs?: string[] } = {}): Indexer {
  return createIndexer({
    source: createRpcChainSource(rpcUrl, { retry: { retries: 2, baseDelayMs: 50 } }),
    sink,
    batchSize: options.batchSize ?? 10,
    concurrency: 6,
    pollIntervalMs: 100,
    log: (line) => options.logs?.push(line),
    onEvent: (e) => options.events?.push(e),
  });
}

let id = 0;
export async function rpc(url: string, method: string, params: readonly unknown[]): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export const toHex = (n: number | bigint): Hex => hex(`0x${n.toString(16)}`);

export const DEV_ACCOUNT0 = address('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
export const DEV_ACCOUNT1 = address('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');

/**
 * Send a plain transfer and wait until it is in a block. Anvil's automine answers
 * eth_sendTransaction before the block exists, so a snapshot or an indexer run right after a
 * bare send can see the chain one block short.
 */
export async function sendMined(url: string, value: bigint, from: Hex = DEV_ACCOUNT0, to: Hex = DEV_ACCOUNT1): Promise<Hex> {
  const hash = (await rpc(url, 'eth_sendTransaction', [{ from, to, value: toHex(value) }])) as Hex;
  for (let i = 0; i < 400; i++) {
    if ((await rpc(url, 'eth_getTransactionReceipt', [hash])) !== null) return hash;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${hash} not mined after 10 s`);
}
