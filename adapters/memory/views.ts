/**
 * Derived read state: sorted list indexes and current values computed from State.
 *
 * A Views object belongs to one State version; each index is built on first use and kept
 * until the next mutation makes the whole object stale (see MemoryReader.views). Building an
 * index is O(n log n) once per write; serving a page from it is O(log n + page).
 */
import type {
  Address,
  AddressRecord,
  BlockRecord,
  CoinBalanceRecord,
  Hex,
  InternalTransactionRecord,
  LogRecord,
  TokenInstanceRecord,
  TokenRecord,
  TokenTransferRecord,
  TransactionKind,
  TransactionRecord,
} from '../../lib/domain/records.ts';
import type { CurrentTokenBalance } from '../../lib/ports.ts';
import {
  ascBig,
  balanceOrder,
  blockOrder,
  coinBalanceOrder,
  holderOrder,
  internalOrder,
  logOrder,
  minedOrder,
  namedAddressOrder,
  pendingOrder,
  tokenIdDesc,
  tokenListOrder,
  transferOrder,
} from './compare.ts';
import type { StoredBlock } from './prepare.ts';
import type { State } from './state.ts';
import { balanceKey, instanceKey } from './state.ts';
import { ZERO_ADDRESS } from '../../lib/domain/hex.ts';


interface BlockIndex {
  readonly consensus: readonly BlockRecord[];
  readonly reorg: readonly BlockRecord[];
  readonly consensusByMiner: ReadonlyMap<Address, readonly BlockRecord[]>;
  readonly reorgByMiner: ReadonlyMap<Address, readonly BlockRecord[]>;
}
interface TransactionIndex {
  readonly validated: readonly TransactionRecord[];
  readonly byKind: ReadonlyMap<TransactionKind, readonly TransactionRecord[]>;
  readonly byMethod: ReadonlyMap<Hex, readonly TransactionRecord[]>;
  readonly byFrom: ReadonlyMap<Address, readonly TransactionRecord[]>;
  /** rows whose `to` or `createdContract` is the address (once per row) */
  readonly byTo: ReadonlyMap<Address, readonly TransactionRecord[]>;
  readonly pending: readonly TransactionRecord[];
}
interface InternalIndex {
  readonly all: readonly InternalTransactionRecord[];
  readonly byFrom: ReadonlyMap<Address, readonly InternalTransactionRecord[]>;
  /** rows whose `to` or `createdContract` is the address (once per row) */
  readonly byTo: ReadonlyMap<Address, readonly InternalTransactionRecord[]>;
}
interface TransferIndex {
  readonly all: readonly TokenTransferRecord[];
  readonly byToken: ReadonlyMap<Address, readonly TokenTransferRecord[]>;
  readonly byFrom: ReadonlyMap<Address, readonly TokenTransferRecord[]>;
  readonly byTo: ReadonlyMap<Address, readonly TokenTransferRecord[]>;
}
interface LogIndex {
  readonly all: readonly LogRecord[];
  readonly byAddress: ReadonlyMap<Address, readonly LogRecord[]>;
}

export class Views {
  readonly version: number;
  private blockIndex?: BlockIndex;
  private txIndex?: TransactionIndex;
  private internalIndex?: InternalIndex;
  private transferIndex?: TransferIndex;
  private logIndex?: LogIndex;
  private coinIndex?: ReadonlyMap<Address, readonly CoinBalanceRecord[]>;
  private erc721Owned?: ReadonlyMap<string, readonly bigint[]>;
  private readonly transfersByIdCache = new Map<string, readonly TokenTransferRecord[]>();
  private readonly holdersCountCache = new Map<Address, bigint>();
  private readonly tokenCache = new Map<Address, TokenRecord | null>();
  private readonly instanceCache = new Map<string, TokenInstanceRecord | null>();
  private readonly holderBalancesCache = new Map<Address, readonly CurrentTokenBalance[]>();
  private readonly instanceIdsCache = new Map<Address, readonly bigint[]>();
  private readonly holdersCache = new Map<string, readonly CurrentTokenBalance[]>();
  private tokenListIndex?: readonly TokenRecord[];
  private namedAddressIndex?: readonly (AddressRecord & { readonly name: string })[];

  constructor(private readonly s: State) {
    this.version = s.version;
  }

  // ---- lists ---------------------------------------------------------------------------------

  get blocks(): BlockIndex {
    return (this.blockIndex ??= buildBlockIndex(this.s));
  }

  get transactions(): TransactionIndex {
    return (this.txIndex ??= buildTransactionIndex(this.s));
  }

  get internal(): InternalIndex {
    return (this.internalIndex ??= buildInternalIndex(this.s));
  }

  get transfers(): TransferIndex {
    return (this.transferIndex ??= buildTransferIndex(this.s));
  }

  get logs(): LogIndex {
    return (this.logIndex ??= buildLogIndex(this.s));
  }

  /** address → coin balance history, blockNumber DESC (the last record of a block per address). */
  get coinBalances(): ReadonlyMap<Address, readonly CoinBalanceRecord[]> {
    return (this.coinIndex ??= buildCoinIndex(this.s));
  }

  /** Every token (with its holders count), in listTokens order. */
  get tokenList(): readonly TokenRecord[] {
    if (this.tokenListIndex === undefined) {
      const rows: TokenRecord[] = [];
      for (const address of this.s.tokens.keys()) {
        const t = this.token(address as Address);
        if (t !== null) rows.push(t);
      }
      this.tokenListIndex = rows.sort(tokenListOrder);
    }
    return this.tokenListIndex;
  }

  /** Every address with a name, in listAddresses order. */
  get namedAddresses(): readonly (AddressRecord & { readonly name: string })[] {
    if (this.namedAddressIndex === undefined) {
      const rows: (AddressRecord & { readonly name: string })[] = [];
      for (const hash of this.s.addresses.keys()) {
        const a = this.s.addresses.current(hash);
        if (a !== undefined && a.name !== null) rows.push({ ...a, name: a.name });
      }
      this.namedAddressIndex = rows.sort(namedAddressOrder);
    }
    return this.namedAddressIndex;
  }

  /** Transfers (consensus) containing one id of a token, in list order. */
  transfersOfId(token: Address, id: bigint): readonly TokenTransferRecord[] {
    const key = instanceKey(token, id);
    let list = this.transfersByIdCache.get(key);
    if (list === undefined) {
      list = [...(this.s.transfersById.get(key)?.transfers ?? [])].sort(transferOrder);
      this.transfersByIdCache.set(key, list);
    }
    return list;
  }

  // ---- current values ------------------------------------------------------------------------

  /** A holder's current balances with value > 0 (ERC-7984: any value), in list order. */
  holderBalances(holder: Address): readonly CurrentTokenBalance[] {
    let list = this.holderBalancesCache.get(holder);
    if (list === undefined) {
      const rows: CurrentTokenBalance[] = [];
      for (const key of this.s.balancesByHolder.get(holder)) {
        const b = this.s.balances.current(key);
        if (b === undefined || (b.value <= 0n && b.tokenType !== 'ERC-7984')) continue;
        const { tokenAddress, tokenType, tokenId, value } = b;
        rows.push(Object.freeze({ holder: b.holder, tokenAddress, tokenType, tokenId, value }));
      }
      list = rows.sort(balanceOrder);
      this.holderBalancesCache.set(holder, list);
    }
    return list;
  }

  /** Current balance of one (holder, token, id); 0 when none. */
  balanceOf(holder: Address, token: Address, id: bigint | null): bigint {
    return this.s.balances.current(balanceKey(holder, token, id))?.value ?? 0n;
  }

  /** Holders of a token (or of one id): current balances > 0 (ERC-7984 any), no zero address, in list order. */
  tokenHolders(token: Address, id: bigint | undefined): readonly CurrentTokenBalance[] {
    const cacheKey = id === undefined ? token : instanceKey(token, id);
    let list = this.holdersCache.get(cacheKey);
    if (list === undefined) {
      const rows: CurrentTokenBalance[] = [];
      for (const key of id === undefined ? this.s.balancesByToken.get(token) : this.s.balancesById.get(cacheKey)) {
        const b = this.s.balances.current(key);
        if (b === undefined || b.holder === ZERO_ADDRESS || (b.value <= 0n && b.tokenType !== 'ERC-7984')) continue;
        const { tokenAddress, tokenType, tokenId, value } = b;
        rows.push(Object.freeze({ holder: b.holder, tokenAddress, tokenType, tokenId, value }));
      }
      list = rows.sort(holderOrder);
      this.holdersCache.set(cacheKey, list);
    }
    return list;
  }

  holdersCount(token: Address): bigint {
    let n = this.holdersCountCache.get(token);
    if (n === undefined) {
      const holders = new Set<Address>();
      for (const key of this.s.balancesByToken.get(token)) {
        const b = this.s.balances.current(key);
        if (b !== undefined && b.value > 0n && b.holder !== ZERO_ADDRESS) holders.add(b.holder);
      }
      n = BigInt(holders.size);
      this.holdersCountCache.set(token, n);
    }
    return n;
  }

  token(address: Address): TokenRecord | null {
    let t = this.tokenCache.get(address);
    if (t === undefined) {
      const latest = this.s.tokens.current(address);
      t = latest === undefined ? null : Object.freeze({ ...latest, holdersCount: this.holdersCount(address) });
      this.tokenCache.set(address, t);
    }
    return t;
  }

  /** ERC-721 owner of an id: `to` of the latest transfer (blockNumber, logIndex) carrying it. */
  erc721Owner(token: Address, id: bigint): Address | null {
    let latest: TokenTransferRecord | undefined;
    for (const tt of this.s.transfersById.get(instanceKey(token, id))?.transfers ?? []) {
      if (latest === undefined || transferOrder(tt, latest) < 0) latest = tt;
    }
    return latest?.to ?? null;
  }

  /** ERC-1155/404 owner: the only non-zero holder with a positive balance, when it holds exactly 1. */
  soleOwner(token: Address, id: bigint): Address | null {
    let owner: Address | null = null;
    let count = 0;
    for (const key of this.s.balancesById.get(instanceKey(token, id))) {
      const b = this.s.balances.current(key);
      if (b === undefined || b.value <= 0n || b.holder === ZERO_ADDRESS) continue;
      count++;
      owner = b.value === 1n ? b.holder : null;
    }
    return count === 1 ? owner : null;
  }

  instance(token: Address, id: bigint): TokenInstanceRecord | null {
    const key = instanceKey(token, id);
    let rec = this.instanceCache.get(key);
    if (rec === undefined) {
      const w = this.s.instances.current(key);
      if (w === undefined) rec = null;
      else {
        let owner: Address | null = null;
        let isUnique = false;
        if (w.tokenType === 'ERC-721') {
          owner = this.erc721Owner(token, id);
          isUnique = true;
        } else if (w.tokenType === 'ERC-1155' || w.tokenType === 'ERC-404') {
          owner = this.soleOwner(token, id);
          isUnique = owner !== null;
        }
        rec = Object.freeze({ tokenAddress: token, tokenId: id, tokenType: w.tokenType, metadata: w.metadata, owner, isUnique });
      }
      this.instanceCache.set(key, rec);
    }
    return rec;
  }

  /** Ids of a token that have an instance row, tokenId DESC. */
  instanceIds(token: Address): readonly bigint[] {
    let ids = this.instanceIdsCache.get(token);
    if (ids === undefined) {
      const found: bigint[] = [];
      for (const key of this.s.instancesByToken.get(token)) {
        const w = this.s.instances.current(key);
        if (w !== undefined) found.push(w.tokenId);
      }
      ids = found.sort(tokenIdDesc);
      this.instanceIdsCache.set(token, ids);
    }
    return ids;
  }

  /** ERC-721 ids whose derived owner is the holder, tokenId DESC (transfers decide; instance rows not needed). */
  ownedErc721(holder: Address, token: Address): readonly bigint[] {
    this.erc721Owned ??= buildErc721Owned(this.s);
    return this.erc721Owned.get(`${holder}|${token}`) ?? [];
  }
}

// ---- builders ----------------------------------------------------------------------------------

function consensusBlocks(s: State): StoredBlock[] {
  const out: StoredBlock[] = [];
  for (const e of s.blocks.values()) if (e.stored.block.consensus) out.push(e.stored);
  return out;
}

function groupBy<T, K>(sorted: readonly T[], keys: (x: T) => Iterable<K>): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const x of sorted) {
    for (const k of keys(x)) {
      const list = out.get(k);
      if (list === undefined) out.set(k, [x]);
      else list.push(x);
    }
  }
  return out;
}

function buildBlockIndex(s: State): BlockIndex {
  const consensus: BlockRecord[] = [];
  const reorg: BlockRecord[] = [];
  for (const { stored } of s.blocks.values()) (stored.block.consensus ? consensus : reorg).push(stored.block);
  consensus.sort(blockOrder);
  reorg.sort(blockOrder);
  return {
    consensus,
    reorg,
    consensusByMiner: groupBy(consensus, (b) => [b.miner]),
    reorgByMiner: groupBy(reorg, (b) => [b.miner]),
  };
}

function buildTransactionIndex(s: State): TransactionIndex {
  const validated: TransactionRecord[] = [];
  for (const stored of consensusBlocks(s)) validated.push(...stored.transactions.values());
  validated.sort(minedOrder);
  return {
    validated,
    byKind: groupBy(validated, (t) => new Set(t.kinds)),
    byMethod: groupBy(validated, (t) => (t.methodId === null ? [] : [t.methodId])),
    byFrom: groupBy(validated, (t) => [t.from]),
    byTo: groupBy(validated, toOrCreated),
    pending: [...s.pending.values()].sort(pendingOrder),
  };
}

function buildInternalIndex(s: State): InternalIndex {
  const all: InternalTransactionRecord[] = [];
  for (const stored of consensusBlocks(s)) for (const rows of stored.internalByTx.values()) all.push(...rows);
  all.sort(internalOrder);
  return {
    all,
    byFrom: groupBy(all, (r) => [r.from]),
    byTo: groupBy(all, toOrCreated),
  };
}

/** The receiving side of a row: `to` and the created contract, each once. */
function toOrCreated(r: { readonly to: Address | null; readonly createdContract: Address | null }): Set<Address> {
  const keys = new Set<Address>();
  if (r.to !== null) keys.add(r.to);
  if (r.createdContract !== null) keys.add(r.createdContract);
  return keys;
}

function buildTransferIndex(s: State): TransferIndex {
  const all: TokenTransferRecord[] = [];
  for (const stored of consensusBlocks(s)) all.push(...stored.bundle.tokenTransfers);
  all.sort(transferOrder);
  return {
    all,
    byToken: groupBy(all, (t) => [t.tokenAddress]),
    byFrom: groupBy(all, (t) => [t.from]),
    byTo: groupBy(all, (t) => [t.to]),
  };
}

function buildLogIndex(s: State): LogIndex {
  const all: LogRecord[] = [];
  for (const stored of consensusBlocks(s)) all.push(...stored.bundle.logs);
  all.sort(logOrder);
  return { all, byAddress: groupBy(all, (l) => [l.address]) };
}

function buildCoinIndex(s: State): Map<Address, CoinBalanceRecord[]> {
  const out = new Map<Address, CoinBalanceRecord[]>();
  for (const stored of consensusBlocks(s)) {
    // one record per address and block: the last one the bundle carries
    const last = new Map<Address, CoinBalanceRecord>();
    for (const c of stored.bundle.coinBalances) last.set(c.address, c);
    for (const [address, c] of last) {
      const list = out.get(address);
      if (list === undefined) out.set(address, [c]);
      else list.push(c);
    }
  }
  for (const list of out.values()) list.sort(coinBalanceOrder);
  return out;
}

/** `${holder}|${token}` → ERC-721 ids owned (latest transfer's `to`), tokenId DESC. */
function buildErc721Owned(s: State): Map<string, bigint[]> {
  const out = new Map<string, bigint[]>();
  for (const { tokenId, transfers } of s.transfersById.values()) {
    let latest: TokenTransferRecord | undefined;
    for (const tt of transfers) if (latest === undefined || transferOrder(tt, latest) < 0) latest = tt;
    if (latest === undefined || latest.tokenType !== 'ERC-721') continue;
    const key = `${latest.to}|${latest.tokenAddress}`;
    const list = out.get(key);
    if (list === undefined) out.set(key, [tokenId]);
    else list.push(tokenId);
  }
  for (const list of out.values()) list.sort((a, b) => ascBig(b, a));
  return out;
}
