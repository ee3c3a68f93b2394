/**
 * The node's pending pool (ChainSource.readPendingPool), read the best way the node gives it,
 * probed once:
 * - `txpool_content` (anvil; geth, reth, erigon and nethermind with the `txpool` API enabled):
 *   the whole pool at once; its executable `pending` part is read (not `queued`, which waits on
 *   a nonce gap and would not be mined next, as Blockscout reads it);
 * - else a pending-transaction filter (`eth_newPendingTransactionFilter`): each read takes the
 *   new hashes (`eth_getFilterChanges`) and asks `eth_getTransactionByHash` for them and for every
 *   one still held, so one mined, replaced or evicted leaves; a filter the node forgot (geth
 *   drops one not polled for 5 minutes) is made again;
 * - else the `pending` block's transactions (only those the node would mine next): held like the
 *   filter's, each asked again by hash once it is no longer in the pending block, so a
 *   transaction the node merely left out of its next block is not taken for gone;
 * - else none.
 */
import type { PendingPoolMethod, PendingPoolRead, SourcePendingTransaction } from '../../lib/chain-source.ts';
import type { Hash } from '../../lib/domain/records.ts';
import { arr, hash, obj, parsePendingTransaction } from './parse.ts';

type Call = (method: string, params: readonly unknown[]) => Promise<unknown>;

export interface PendingPoolReader {
  method(): Promise<PendingPoolMethod>;
  /** `known`: hashes held as pending elsewhere (the store), asked after by hash where the pool is seen in part */
  read(limit: number, known?: readonly Hash[]): Promise<PendingPoolRead>;
}

/** by sender, then nonce */
const bySenderNonce = (a: SourcePendingTransaction, b: SourcePendingTransaction): number =>
  a.from < b.from ? -1 : a.from > b.from ? 1 : a.nonce - b.nonce;

const FILTER_GONE = /filter not found|filter .*(does not exist|expired)|unknown filter/i;

/** txpool_content's `pending`: sender → nonce → transaction */
function txpoolPending(result: unknown): SourcePendingTransaction[] {
  const pending = obj(obj(result, 'txpool_content').pending ?? {}, 'txpool_content.pending');
  const out: SourcePendingTransaction[] = [];
  for (const [sender, byNonce] of Object.entries(pending)) {
    for (const tx of Object.values(obj(byNonce, `txpool_content.pending.${sender}`))) out.push(parsePendingTransaction(tx));
  }
  return out;
}

export function createPendingPoolReader(call: Call, isUnsupported: (e: unknown) => boolean): PendingPoolReader {
  let probed: Promise<PendingPoolMethod> | undefined;
  let filterId: string | null = null;
  /** pending-filter, pending-block: the transactions seen and still in the pool */
  const held = new Map<Hash, SourcePendingTransaction>();

  /** the answer, or null when the node does not know the method */
  const attempt = async (method: string, params: readonly unknown[]): Promise<{ readonly value: unknown } | null> => {
    try {
      return { value: await call(method, params) };
    } catch (e) {
      if (isUnsupported(e)) return null;
      throw e;
    }
  };

  const newFilter = async (): Promise<string> => {
    const id = await call('eth_newPendingTransactionFilter', []);
    if (typeof id !== 'string') throw new TypeError(`eth_newPendingTransactionFilter: expected a filter id, got ${JSON.stringify(id)}`);
    return id;
  };

  const probe = async (): Promise<PendingPoolMethod> => {
    const pool = await attempt('txpool_content', []);
    if (pool !== null && typeof pool.value === 'object' && pool.value !== null) return 'txpool_content';
    const filter = await attempt('eth_newPendingTransactionFilter', []);
    if (filter !== null && typeof filter.value === 'string') {
      filterId = filter.value;
      return 'pending-filter';
    }
    const block = await attempt('eth_getBlockByNumber', ['pending', true]);
    if (block !== null && typeof block.value === 'object' && block.value !== null && Array.isArray((block.value as { transactions?: unknown }).transactions)) return 'pending-block';
    return 'none';
  };

  const method = (): Promise<PendingPoolMethod> => {
    probed ??= probe();
    // a probe the node could not answer is asked again next time, never remembered
    probed.catch(() => {
      probed = undefined;
    });
    return probed;
  };

  /** the transactions the filter announced since the last read (hashes; some nodes give whole transactions) */
  const filterChanges = async (): Promise<unknown[]> => {
    filterId ??= await newFilter();
    try {
      return arr(await call('eth_getFilterChanges', [filterId]), 'eth_getFilterChanges');
    } catch (e) {
      if (!FILTER_GONE.test(e instanceof Error ? e.message : String(e)) && !isUnsupported(e)) throw e;
      // forgotten by the node: a new filter from now on (what came meanwhile is missed)
      filterId = await newFilter();
      return [];
    }
  };

  /**
   * The pool as held across reads (pending-filter, pending-block): the transactions seen now
   * (hashes, or whole ones) join those held, up to `limit`; every one held that was not given
   * whole now is asked again (eth_getTransactionByHash), and leaves when the node no longer has it
   * or has it in a block.
   */
  const refresh = async (method: PendingPoolMethod, seen: readonly (Hash | SourcePendingTransaction)[], limit: number): Promise<PendingPoolRead> => {
    const given = new Map<Hash, SourcePendingTransaction>();
    const fresh: Hash[] = [];
    let truncated = false;
    for (const s of seen) {
      const hash = typeof s === 'string' ? s : s.hash;
      if (held.has(hash) || given.has(hash) || fresh.includes(hash)) continue;
      if (held.size + given.size + fresh.length >= limit) {
        truncated = true;
        continue;
      }
      if (typeof s === 'string') fresh.push(hash);
      else given.set(hash, s);
    }
    for (const s of seen) if (typeof s !== 'string' && held.has(s.hash)) given.set(s.hash, s);
    const ask = [...held.keys(), ...fresh].filter((h) => !given.has(h));
    const answers = await Promise.all(ask.map((h) => call('eth_getTransactionByHash', [h])));
    ask.forEach((h, i) => {
      const a = answers[i];
      const inPool = a !== null && a !== undefined && typeof a === 'object' && ((a as { blockHash?: unknown }).blockHash ?? null) === null;
      if (inPool) held.set(h, parsePendingTransaction(a));
      else held.delete(h);
    });
    for (const [h, tx] of given) held.set(h, tx);
    return { method, transactions: [...held.values()].sort(bySenderNonce), truncated };
  };

  const readFilter = async (limit: number, known: readonly Hash[]): Promise<PendingPoolRead> => {
    const changes = await filterChanges();
    const hashes = changes.map((c) => (typeof c === 'string' ? hash(c, 'eth_getFilterChanges item') : hash(obj(c, 'eth_getFilterChanges item').hash, 'eth_getFilterChanges item.hash')));
    return refresh('pending-filter', [...hashes, ...known], limit);
  };

  const cut = (method: PendingPoolMethod, all: SourcePendingTransaction[], limit: number): PendingPoolRead => {
    all.sort(bySenderNonce);
    return { method, transactions: all.slice(0, limit), truncated: all.length > limit };
  };

  return {
    method,
    async read(limit, known = []) {
      if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`readPendingPool: bad limit ${String(limit)}`);
      const how = await method();
      switch (how) {
        case 'txpool_content':
          return cut(how, txpoolPending(await call('txpool_content', [])), limit);
        case 'pending-filter':
          return readFilter(limit, known.map((h) => hash(h, 'known hash')));
        case 'pending-block': {
          const block = await call('eth_getBlockByNumber', ['pending', true]);
          const txs = block === null || block === undefined ? [] : arr(obj(block, 'pending block').transactions ?? [], 'pending block.transactions');
          return refresh(how, [...txs.filter((t) => typeof t === 'object').map(parsePendingTransaction), ...known.map((h) => hash(h, 'known hash'))], limit);
        }
        case 'none':
          return { method: how, transactions: [], truncated: false };
      }
    },
  };
}
