/**
 * The events of a change, with Blockscout's payloads (reference §3), rendered by the same lib
 * renderers as the API answers: a `new_block` block is a `/blocks` item, an `addresses:{h}`
 * `transaction` list holds `/addresses/{h}/transactions` items, a `token_transfer` list
 * `/addresses/{h}/token-transfers` items, the balance events those of the balance answers
 * (./balances.ts), a `user_operation` list `/proxy/account-abstraction/operations` items of the
 * address as sender (./userOperations.ts: scoutkit's, Blockscout has none). Per-address and
 * per-token payloads are computed only for topics someone subscribed to (`wanted`), as
 * Blockscout does; blocks in ascending order.
 */
import type { Address, TokenTransferRecord, TransactionRecord } from '../domain/records.ts';
import type { Change } from '../feed/change.ts';
import type { JsonObject } from '../json.ts';
import type { DataSource } from '../ports.ts';
import { renderBlock } from '../render/block.ts';
import type { RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { renderTransaction, transactionRefs } from '../render/transaction.ts';
import { expandTransfer, renderTransfer, transferRefs } from '../render/transfer.ts';
import { averageSpacingMs, averageWindow, newestBlockFigures } from '../stats/averageBlockTime.ts';
import { coinBalanceEvents, tokenBalanceEvents } from './balances.ts';
import { parseTopic, TOPICS } from './topics.ts';
import { userOperationEvents } from './userOperations.ts';

/** One message: Blockscout's topic, event and payload, and the data version it came with. */
export interface LiveEvent {
  readonly topic: string;
  readonly event: string;
  readonly payload: JsonObject;
  /** the data version of the change (SSE event id: resume after it) */
  readonly version: number;
}

/** more rows than one write stores */
const ALL = 1_000_000;

const lower = (a: string | null): string | null => (a === null ? null : a.toLowerCase());

/**
 * How new blocks are announced on `blocks:new_block` (Blockscout's BLOCK_BROADCAST_TYPE): `block`,
 * a `new_block` per block (also on `blocks:{miner}`); `count`, one `new_blocks_count`
 * `{count, type}` per batch instead (nothing on the miners' topics). The type is the blocks' kind
 * as /blocks names it: a batch's blocks are consensus blocks, so always "block".
 *
 * A reorg is announced as Blockscout announces it: the blocks that replace the rolled-back ones
 * are new blocks, sent at once though their heights were sent before (Blockscout's realtime
 * import never broadcasts the blocks that lost consensus; scoutkit removes them).
 */
export type BlockBroadcast = 'block' | 'count';

export interface EventOptions {
  /**
   * The topics followed: the balance events are computed for its address topics (a balance
   * changes for addresses the change does not name: miners, traces' receivers). Without it, for
   * the change's addresses and its blocks' miners only.
   */
  readonly subscribed?: Iterable<string>;
  /** default `block` */
  readonly blockBroadcast?: BlockBroadcast;
}

/** The events of `change` for the topics `wanted`. */
export async function eventsOfChange(ds: DataSource, change: Change, wanted: (topic: string) => boolean, render: RenderOptions, options: EventOptions = {}): Promise<LiveEvent[]> {
  const out: LiveEvent[] = [];
  const { version } = change;
  const push = (topic: string, event: string, payload: JsonObject): void => void out.push({ topic, event, payload, version });

  if (change.blocks !== null) {
    const { from, to } = change.blocks;
    const range = { from, to };
    const blocks = (await ds.listBlocks({ kind: 'block', blocks: range }, { after: null, limit: to - from + 1, order: 'asc' })).filter((b) => b.number >= from && b.number <= to);
    if (options.blockBroadcast === 'count') {
      if (blocks.length > 0) push(TOPICS.newBlock, 'new_blocks_count', { count: blocks.length, type: 'block' });
    } else if (blocks.length > 0 && (wanted(TOPICS.newBlock) || blocks.some((b) => wanted(TOPICS.miner(b.miner))))) {
      const [ctx, newest] = await Promise.all([loadContext(ds, { addresses: blocks.map((b) => b.miner) }, render), newestBlockFigures(ds)]);
      const average = String(averageSpacingMs(averageWindow(newest)));
      for (const b of blocks) {
        const payload = { average_block_time: average, block: renderBlock(b, ctx, false) };
        push(TOPICS.newBlock, 'new_block', payload);
        push(TOPICS.miner(b.miner), 'new_block', payload);
      }
    }
    if (change.transactions.length > 0) push(TOPICS.newTransaction, 'transaction', { transaction: change.transactions.length });
    // `collated` on `transactions:{hash}` once it is mined: what the frontend's transaction page
    // waits for while the transaction is pending (Blockscout sends it only on the old topics
    // since v8, reference §5.1; sent here on the v2 topic, an empty payload as v7 sent it)
    for (const hash of change.transactions) if (wanted(TOPICS.transaction(hash))) push(TOPICS.transaction(hash), 'collated', {});

    const addressTopics = change.addresses.filter((a) => wanted(TOPICS.address(a)));
    const tokenTopics = change.tokens.filter((t) => wanted(TOPICS.token(t)));
    if (addressTopics.length > 0) {
      const txs = await ds.listTransactions({ status: 'validated', blocks: range }, { after: null, limit: ALL, order: 'asc' });
      await pushTransactions(ds, txs, addressTopics, 'transaction', render, push);
    }
    let transfers: readonly TokenTransferRecord[] | null = null;
    const readTransfers = async (): Promise<readonly TokenTransferRecord[]> =>
      (transfers ??= await ds.listTokenTransfers({ blocks: range }, { after: null, limit: ALL, order: 'asc' }));
    if (addressTopics.length > 0 || tokenTopics.length > 0) {
      const all = await readTransfers();
      for (const token of tokenTopics) {
        const n = all.filter((r) => lower(r.tokenAddress) === token).length;
        if (n > 0) push(TOPICS.token(token), 'token_transfer', { token_transfer: n });
      }
      if (addressTopics.length > 0) {
        const items = all.flatMap((r) => expandTransfer(r));
        const ctx = await loadContext(ds, transferRefs(items), render);
        for (const a of addressTopics) {
          const mine = items.filter((i) => lower(i.record.from) === a || lower(i.record.to) === a);
          if (mine.length > 0) push(TOPICS.address(a), 'token_transfer', { token_transfers: mine.map((i) => renderTransfer(i, ctx)) });
        }
      }
    }
    const followed = followedAddresses(options.subscribed, wanted, () => [...change.addresses, ...blocks.map((b) => b.miner)]);
    if (followed.length > 0) {
      await coinBalanceEvents(ds, range, followed, push);
      await tokenBalanceEvents(ds, await readTransfers(), new Set(followed), push);
      await userOperationEvents(ds, range, followed, render, push);
    }
  }

  if (change.pendingAdded.length > 0) {
    push(TOPICS.newPendingTransaction, 'pending_transaction', { pending_transaction: change.pendingAdded.length });
    const addressTopics = change.addresses.filter((a) => wanted(TOPICS.address(a)));
    if (addressTopics.length > 0) {
      const txs = (await Promise.all(change.pendingAdded.map((h) => ds.getTransaction(h)))).filter((t): t is TransactionRecord => t !== null && t.blockNumber === null);
      await pushTransactions(ds, txs, addressTopics, 'pending_transaction', render, push);
    }
  }
  return out;
}

/** `transaction` / `pending_transaction` on each address topic: the transactions from or to it (created contracts get none, as in Blockscout). */
async function pushTransactions(
  ds: DataSource,
  txs: readonly TransactionRecord[],
  addresses: readonly Address[],
  event: string,
  render: RenderOptions,
  push: (topic: string, event: string, payload: JsonObject) => void,
): Promise<void> {
  const ctx = await loadContext(ds, transactionRefs(txs), render);
  for (const a of addresses) {
    const mine = txs.filter((t) => lower(t.from) === a || lower(t.to) === a);
    if (mine.length > 0) push(TOPICS.address(a), event, { transactions: mine.map((t) => renderTransaction(t, ctx, { tokenTransfers: null, detail: false })) });
  }
}

/** The addresses of the address topics followed (lowercase: a mixed-case topic gets nothing, as in Blockscout). */
function followedAddresses(subscribed: Iterable<string> | undefined, wanted: (topic: string) => boolean, fallback: () => readonly string[]): Address[] {
  const out = new Set<Address>();
  if (subscribed === undefined) {
    for (const a of fallback()) if (wanted(TOPICS.address(a))) out.add(a.toLowerCase() as Address);
    return [...out];
  }
  for (const topic of subscribed) {
    if (!topic.startsWith('addresses:') || !wanted(topic)) continue;
    const parsed = parseTopic(topic);
    if (typeof parsed === 'object' && parsed.kind === 'address' && parsed.address === parsed.address.toLowerCase()) out.add(parsed.address as Address);
  }
  return [...out];
}
