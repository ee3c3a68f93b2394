/**
 * The store's state and its mutations (the DataSink's second phase).
 *
 * The primary data is the set of stored blocks, each holding its frozen bundle; everything else
 * here is a keyed index over the rows of *consensus* blocks, maintained on insert and delete
 * so that point lookups (transaction, token, address, instance, balance) never scan. Sorted
 * list indexes are derived lazily from this state (views.ts) and dropped on every mutation.
 *
 * Rows of non-consensus blocks are kept with their block (getBlock and /blocks?type=reorg see
 * them) but take no part in current state or lists.
 */
import type {
  Address,
  AddressRecord,
  CoinBalanceRecord,
  ContractCodeRecord,
  ProxyRecord,
  Hash,
  TokenBalanceRecord,
  TokenInstanceWrite,
  TokenRecord,
  TokenTransferRecord,
  TraceFrameRecord,
  TransactionRecord,
} from '../../lib/domain/records.ts';
import { StatsDelta } from '../../lib/stats/chainStats.ts';
import { CounterTable } from './counters.ts';
import { HistoryTable, KeyIndex } from './history.ts';
import { ChainStatsTable } from './stats.ts';
import type { StoredBlock } from './prepare.ts';

export interface BlockEntry {
  readonly stored: StoredBlock;
  /** write order of the block */
  readonly seq: number;
}

export const balanceKey = (holder: string, token: string, id: bigint | null): string =>
  `${holder}|${token}|${id === null ? '' : id.toString()}`;
export const instanceKey = (token: string, id: bigint): string => `${token}|${id.toString()}`;

export class State {
  /** block hash → block */
  readonly blocks = new Map<Hash, BlockEntry>();
  /** block number → hashes of the blocks stored at that height */
  readonly hashesAtHeight = new Map<number, Set<Hash>>();
  /** transaction hash → hashes of the blocks that contain it */
  readonly txBlocks = new Map<Hash, Set<Hash>>();
  /** mempool transactions by hash */
  readonly pending = new Map<Hash, TransactionRecord>();

  // keyed history, consensus blocks only
  readonly addresses = new HistoryTable<AddressRecord>();
  readonly tokens = new HistoryTable<TokenRecord>();
  /** balanceKey → balance history */
  readonly balances = new HistoryTable<TokenBalanceRecord>();
  /** address → coin balance history */
  readonly coinBalances = new HistoryTable<CoinBalanceRecord>();
  /** instanceKey → metadata history */
  readonly instances = new HistoryTable<TokenInstanceWrite>();
  /** holder → balanceKeys */
  readonly balancesByHolder = new KeyIndex();
  /** token → balanceKeys */
  readonly balancesByToken = new KeyIndex();
  /** instanceKey → balanceKeys (balances of one id) */
  readonly balancesById = new KeyIndex();
  /** token → instanceKeys */
  readonly instancesByToken = new KeyIndex();
  /** instanceKey → the transfers containing that id (any order) */
  readonly transfersById = new Map<string, { readonly tokenId: bigint; transfers: TokenTransferRecord[] }>();

  /** count and Σ amount of the withdrawals of consensus blocks (kept on insert and remove) */
  readonly withdrawalTotals = { count: 0n, sum: 0n };
  /** chain counters and daily aggregates of the consensus blocks (stats.ts) */
  readonly stats = new ChainStatsTable();
  /** per-address counters: consensus and pending transactions, consensus transfers, every block mined */
  readonly counters = new CounterTable();
  /** address → created-contract history (the latest creation is current) */
  readonly contracts = new HistoryTable<ContractCodeRecord>();
  /** proxy implementation changes by proxy address (lib/proxy/detect.ts) */
  readonly proxies = new HistoryTable<ProxyRecord>();
  /** transaction hash → its callTracer frames, index ASC */
  readonly framesByTx = new Map<Hash, readonly TraceFrameRecord[]>();

  /** bumped by every mutation; views built for an older version are stale */
  version = 0;
  private seq = 0;

  /** Insert a prepared block (the caller has removed any block it replaces). */
  insert(stored: StoredBlock): void {
    const { block, bundle } = stored;
    this.blocks.set(block.hash, { stored, seq: ++this.seq });
    addToSet(this.hashesAtHeight, block.number, block.hash);
    for (const hash of stored.transactions.keys()) addToSet(this.txBlocks, hash, block.hash);
    this.version++;
    this.counters.block(block.miner, 1n);
    if (!block.consensus) return;

    this.countBlockRows(stored, 1n);
    for (const hash of stored.transactions.keys()) this.removePending(hash);
    for (const w of bundle.withdrawals ?? []) {
      this.withdrawalTotals.count += 1n;
      this.withdrawalTotals.sum += w.amount;
    }
    const at = (blockNumber: number) => ({ blockNumber, blockHash: block.hash, seq: ++this.seq });
    for (const a of bundle.addresses) {
      const { blockNumber, ...record } = a;
      this.addresses.add(a.hash, { value: Object.freeze(record), ...at(blockNumber) });
    }
    for (const t of bundle.tokens) this.tokens.add(t.address, { value: t, ...at(block.number) });
    for (const b of bundle.tokenBalances) {
      const key = balanceKey(b.holder, b.tokenAddress, b.tokenId);
      this.balances.add(key, { value: b, ...at(b.blockNumber) });
      this.balancesByHolder.add(b.holder, key);
      this.balancesByToken.add(b.tokenAddress, key);
      if (b.tokenId !== null) this.balancesById.add(instanceKey(b.tokenAddress, b.tokenId), key);
    }
    let newAddresses = 0;
    const balances = this.balancesBefore(bundle.coinBalances);
    for (const c of bundle.coinBalances) {
      if (this.coinBalances.latest(c.address) === undefined) newAddresses++;
      this.coinBalances.add(c.address, { value: c, ...at(c.blockNumber) });
    }
    this.moveSupply(balances);
    this.addStats(stored, 1, newAddresses);
    for (const i of bundle.tokenInstances) {
      const key = instanceKey(i.tokenAddress, i.tokenId);
      this.instances.add(key, { value: i, ...at(i.blockNumber) });
      this.instancesByToken.add(i.tokenAddress, key);
    }
    for (const tt of bundle.tokenTransfers) {
      for (const id of new Set(tt.tokenIds)) {
        const key = instanceKey(tt.tokenAddress, id);
        const entry = this.transfersById.get(key);
        if (entry === undefined) this.transfersById.set(key, { tokenId: id, transfers: [tt] });
        else entry.transfers.push(tt);
      }
    }
    for (const c of bundle.contractCodes ?? []) {
      this.contracts.add(c.address, { value: c, ...at(c.blockNumber) });
    }
    for (const p of bundle.proxies ?? []) this.proxies.add(p.proxy, { value: p, ...at(p.blockNumber) });
    const frames = new Map<Hash, TraceFrameRecord[]>();
    for (const f of bundle.traceFrames ?? []) {
      const list = frames.get(f.transactionHash);
      if (list === undefined) frames.set(f.transactionHash, [f]);
      else list.push(f);
    }
    for (const [tx, list] of frames) this.framesByTx.set(tx, list.sort((a, b) => a.index - b.index));
  }

  /** Delete a block and every row it brought. */
  remove(hash: Hash): void {
    const entry = this.blocks.get(hash);
    if (entry === undefined) return;
    const { block, bundle } = entry.stored;
    this.blocks.delete(hash);
    deleteFromSet(this.hashesAtHeight, block.number, hash);
    for (const tx of entry.stored.transactions.keys()) deleteFromSet(this.txBlocks, tx, hash);
    this.version++;
    this.counters.block(block.miner, -1n);
    if (!block.consensus) return;

    for (const w of bundle.withdrawals ?? []) {
      this.withdrawalTotals.count -= 1n;
      this.withdrawalTotals.sum -= w.amount;
    }
    this.countBlockRows(entry.stored, -1n);

    for (const a of bundle.addresses) this.addresses.removeBlock(a.hash, hash);
    for (const t of bundle.tokens) this.tokens.removeBlock(t.address, hash);
    for (const b of bundle.tokenBalances) {
      const key = balanceKey(b.holder, b.tokenAddress, b.tokenId);
      if (this.balances.removeBlock(key, hash)) {
        this.balancesByHolder.remove(b.holder, key);
        this.balancesByToken.remove(b.tokenAddress, key);
        if (b.tokenId !== null) this.balancesById.remove(instanceKey(b.tokenAddress, b.tokenId), key);
      }
    }
    let goneAddresses = 0;
    const balances = this.balancesBefore(bundle.coinBalances);
    for (const c of bundle.coinBalances) {
      if (this.coinBalances.latest(c.address) !== undefined && this.coinBalances.removeBlock(c.address, hash)) goneAddresses++;
    }
    this.moveSupply(balances);
    this.addStats(entry.stored, -1, -goneAddresses);
    for (const i of bundle.tokenInstances) {
      const key = instanceKey(i.tokenAddress, i.tokenId);
      if (this.instances.removeBlock(key, hash)) this.instancesByToken.remove(i.tokenAddress, key);
    }
    for (const tt of bundle.tokenTransfers) {
      for (const id of new Set(tt.tokenIds)) {
        const key = instanceKey(tt.tokenAddress, id);
        const entry = this.transfersById.get(key);
        if (entry === undefined) continue;
        entry.transfers = entry.transfers.filter((x) => x.blockHash !== hash);
        if (entry.transfers.length === 0) this.transfersById.delete(key);
      }
    }
    for (const c of bundle.contractCodes ?? []) {
      this.contracts.removeBlock(c.address, hash);
    }
    for (const p of bundle.proxies ?? []) this.proxies.removeBlock(p.proxy, hash);
    for (const f of bundle.traceFrames ?? []) this.framesByTx.delete(f.transactionHash);
  }

  /** The current coin balances of the addresses of these rows, before a change. */
  private balancesBefore(rows: readonly CoinBalanceRecord[]): Map<Address, bigint | undefined> {
    const before = new Map<Address, bigint | undefined>();
    for (const c of rows) if (!before.has(c.address)) before.set(c.address, this.coinBalances.current(c.address)?.value);
    return before;
  }

  /** After a change of coin balance rows: move the kept supply by each address's new − old balance. */
  private moveSupply(before: ReadonlyMap<Address, bigint | undefined>): void {
    const changes = new Map<Address, { before: bigint | undefined; after: bigint | undefined }>();
    for (const [address, value] of before) changes.set(address, { before: value, after: this.coinBalances.current(address)?.value });
    this.stats.moveBalances(changes);
  }

  /** Apply (1) or take back (−1) a consensus block's contribution to the chain statistics. */
  private addStats(stored: StoredBlock, sign: 1 | -1, addresses: number): void {
    const delta = new StatsDelta();
    delta.addBlock(stored.block, stored.bundle.transactions, sign);
    this.stats.apply(delta, addresses);
  }

  /** Add (+1) or take back (−1) what a consensus block's transactions and transfers count. */
  private countBlockRows(stored: StoredBlock, sign: 1n | -1n): void {
    for (const tx of stored.bundle.transactions) this.counters.transaction(tx.from, tx.to, tx.gasUsed, sign);
    for (const tt of stored.bundle.tokenTransfers) this.counters.transfer(tt.from, tt.to, sign);
  }

  /** A mempool transaction seen: it counts for its addresses until it is mined. */
  addPending(tx: TransactionRecord): void {
    this.pending.set(tx.hash, tx);
    this.counters.transaction(tx.from, tx.to, tx.gasUsed, 1n);
    this.version++;
  }

  /** A mempool transaction that left the pool unmined (replaced, or gone): it counts no more. */
  dropPending(hash: Hash): TransactionRecord | undefined {
    const tx = this.pending.get(hash);
    if (tx === undefined) return undefined;
    this.removePending(hash);
    this.version++;
    return tx;
  }

  private removePending(hash: Hash): void {
    const tx = this.pending.get(hash);
    if (tx === undefined) return;
    this.pending.delete(hash);
    this.counters.transaction(tx.from, tx.to, tx.gasUsed, -1n);
  }

  /** The blocks stored at a height. */
  blocksAt(number: number): BlockEntry[] {
    const out: BlockEntry[] = [];
    for (const h of this.hashesAtHeight.get(number) ?? []) {
      const e = this.blocks.get(h);
      if (e !== undefined) out.push(e);
    }
    return out;
  }

  /** The block that stands for a height: its consensus block, else the last non-consensus one written. */
  preferredAt(number: number): BlockEntry | undefined {
    let best: BlockEntry | undefined;
    for (const e of this.blocksAt(number)) {
      const c = e.stored.block.consensus;
      if (best === undefined || (c !== best.stored.block.consensus ? c : e.seq > best.seq)) best = e;
    }
    return best;
  }

  /** Highest height holding any block. */
  maxHeight(): number | undefined {
    let max: number | undefined;
    for (const n of this.hashesAtHeight.keys()) if (max === undefined || n > max) max = n;
    return max;
  }

  /** The consensus block holding a transaction, if any. */
  consensusBlockOf(txHash: Hash): StoredBlock | undefined {
    for (const h of this.txBlocks.get(txHash) ?? []) {
      const e = this.blocks.get(h);
      if (e !== undefined && e.stored.block.consensus) return e.stored;
    }
    return undefined;
  }

  /** Latest-written non-consensus block holding a transaction, if any. */
  otherBlockOf(txHash: Hash): StoredBlock | undefined {
    let best: BlockEntry | undefined;
    for (const h of this.txBlocks.get(txHash) ?? []) {
      const e = this.blocks.get(h);
      if (e !== undefined && (best === undefined || e.seq > best.seq)) best = e;
    }
    return best?.stored;
  }

  touch(): void {
    this.version++;
  }
}

function addToSet<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([value]));
  else set.add(value);
}
function deleteFromSet<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
