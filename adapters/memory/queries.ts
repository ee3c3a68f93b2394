/**
 * The DataSource over State: point lookups from the keyed indexes, lists from the sorted
 * views, each following the order and cursor rule of lib/ports.ts (see compare.ts).
 */
import type {
  Address,
  AddressRecord,
  BlockRecord,
  CoinBalanceRecord,
  ContractCodeRecord,
  Hash,
  InternalTransactionRecord,
  LogRecord,
  NftTokenType,
  TokenInstanceRecord,
  TokenRecord,
  TokenTransferRecord,
  TransactionRecord,
} from '../../lib/domain/records.ts';
import type {
  BlockCursor,
  BlockFilter,
  BlockRef,
  Direction,
  CurrentTokenBalance,
  VersionedDataSource,
  HeldTokenInstance,
  InternalTransactionFilter,
  NftCollectionFilter,
  NftCollectionRecord,
  Page,
  TokenBalanceCursor,
  TokenBalanceFilter,
  TokenHolding,
  TokenInstanceKey,
  TokenTransferFilter,
  TransactionCursor,
  TransactionFilter,
} from '../../lib/ports.ts';
import {
  balanceVs,
  holderVs,
  blockVs,
  coinBalanceVs,
  collectionOrder,
  collectionVs,
  inRange,
  instanceVs,
  internalInTxVs,
  internalOrder,
  internalVs,
  logInTxVs,
  logVs,
  minedOrder,
  minedVs,
  namedAddressVs,
  pendingVs,
  rangeAsc,
  rangeDesc,
  tokenIdDesc,
  tokenListVs,
  transferInTxVs,
  transferOrder,
  transferVs,
} from './compare.ts';
import { createAccountReader } from './accounts.ts';
import { asciiLower, compareCodePoints, startsWithLower } from '../../lib/domain/text.ts';
import { pageSize, takePage, takeUnionPage } from './paging.ts';
import type { State } from './state.ts';
import { createStatsReader } from './statsQueries.ts';
import { Views } from './views.ts';
import { listWithdrawals } from './withdrawals.ts';

const NO_ROWS: readonly never[] = Object.freeze([]);

export function createReader(s: State): VersionedDataSource {
  let current = new Views(s);
  /** Views of the current state version (rebuilt lazily after a mutation). */
  const views = (): Views => (current.version === s.version ? current : (current = new Views(s)));

  const getTransaction = (hash: Hash): TransactionRecord | null =>
    s.consensusBlockOf(hash)?.transactions.get(hash) ??
    s.pending.get(hash) ??
    s.otherBlockOf(hash)?.transactions.get(hash) ??
    null;

  const listBlocks = (filter: BlockFilter, page: Page<BlockCursor>): readonly BlockRecord[] => {
    if (filter.kind === 'uncle') return [];
    const idx = views().blocks;
    const rows =
      filter.miner === undefined
        ? filter.kind === 'block'
          ? idx.consensus
          : idx.reorg
        : ((filter.kind === 'block' ? idx.consensusByMiner : idx.reorgByMiner).get(filter.miner) ?? NO_ROWS);
    return takePage(rows, page.limit, {
      cursor: page.after === null ? null : blockVs(page.after),
      window: rangeDesc(filter.blocks, (b: BlockRecord) => b.number),
      backward: page.order === 'asc',
    });
  };

  const tokenBalances = (filter: TokenBalanceFilter, page: Page<TokenBalanceCursor>): readonly CurrentTokenBalance[] => {
    const types = filter.types === undefined ? undefined : new Set(filter.types);
    const c = page.after;
    return takePage(views().holderBalances(filter.holder), page.limit, {
      cursor: c === null ? null : balanceVs(c),
      backward: page.order === 'asc',
      keep: (b) => types === undefined || types.has(b.tokenType),
    });
  };
  return {
    ...createStatsReader(s, () => views().blocks.consensus),
    ...createAccountReader(s),
    getDataVersion: async () => String(s.version),
    // every write goes through this State, in this process: the version is known without asking
    dataVersionSignal: { shared: false, local: () => s.version },
    async getBlock(ref: BlockRef): Promise<BlockRecord | null> {
      if ('hash' in ref) return s.blocks.get(ref.hash)?.stored.block ?? null;
      return s.preferredAt(ref.number)?.stored.block ?? null;
    },

    async getTransaction(hash) {
      return getTransaction(hash);
    },

    async getTransactions(hashes: readonly Hash[]): Promise<readonly TransactionRecord[]> {
      return [...new Set(hashes)].map(getTransaction).filter((tx): tx is TransactionRecord => tx !== null);
    },

    async getToken(address) {
      return views().token(address);
    },

    async getTokenInstance(key) {
      return views().instance(key.tokenAddress, key.tokenId);
    },

    async getHighestBlockNumber() {
      return views().blocks.consensus[0]?.number ?? null;
    },

    async getAddresses(hashes: readonly Address[]): Promise<readonly AddressRecord[]> {
      const out: AddressRecord[] = [];
      for (const h of new Set(hashes)) {
        const a = s.addresses.current(h);
        if (a !== undefined) out.push(a);
      }
      return out;
    },

    async getTokens(addresses: readonly Address[]): Promise<readonly TokenRecord[]> {
      const v = views();
      const out: TokenRecord[] = [];
      for (const a of new Set(addresses)) {
        const t = v.token(a);
        if (t !== null) out.push(t);
      }
      return out;
    },

    async listTokens(filter, page) {
      const prefix = asciiLower(filter.prefix ?? '');
      const types = filter.types !== undefined && filter.types.length > 0 ? filter.types : null;
      return takePage(views().tokenList, page.limit, {
        cursor: page.after === null ? null : tokenListVs(page.after),
        backward: page.order === 'asc',
        keep: (t) => (types === null || types.includes(t.type)) && (prefix === '' || startsWithLower(t.name, prefix) || startsWithLower(t.symbol, prefix)),
      });
    },

    async listAddresses(filter, page) {
      const prefix = asciiLower(filter.namePrefix);
      // names sorted lower-cased: the matches are one contiguous window
      return takePage(views().namedAddresses, page.limit, {
        cursor: page.after === null ? null : namedAddressVs(page.after),
        backward: page.order === 'asc',
        ...(filter.isContract === undefined ? {} : { keep: (a: AddressRecord) => a.isContract === filter.isContract }),
        window: (a) => {
          const name = asciiLower(a.name);
          return name.startsWith(prefix) ? 0 : compareCodePoints(name, prefix);
        },
      });
    },

    async getTokenInstances(keys: readonly TokenInstanceKey[]): Promise<readonly TokenInstanceRecord[]> {
      const v = views();
      const seen = new Set<string>();
      const out: TokenInstanceRecord[] = [];
      for (const k of keys) {
        const id = `${k.tokenAddress}|${k.tokenId.toString()}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const i = v.instance(k.tokenAddress, k.tokenId);
        if (i !== null) out.push(i);
      }
      return out;
    },

    async listBlocks(filter: BlockFilter, page) {
      return listBlocks(filter, page);
    },

    async listBlockFigures(filter: BlockFilter, page) {
      return listBlocks(filter, page).map(({ number, timestamp, gasUsed, gasLimit, transactionFees }) => ({ number, timestamp, gasUsed, gasLimit, transactionFees }));
    },

    async listTransactions(filter: TransactionFilter, page: Page<TransactionCursor>) {
      const idx = views().transactions;
      const kinds = filter.kinds === undefined ? undefined : new Set(filter.kinds);
      const methods = filter.methodIds === undefined ? undefined : new Set(filter.methodIds);
      const { address, blocks } = filter;
      const direction = filter.direction ?? 'any';
      const keep = (t: TransactionRecord): boolean =>
        (kinds === undefined || t.kinds.some((k) => kinds.has(k))) &&
        (methods === undefined || (t.methodId !== null && methods.has(t.methodId))) &&
        (address === undefined || touches(address, direction, t.from, [t.to, t.createdContract])) &&
        inRange(blocks, t.blockNumber);
      const c = page.after;
      const backward = page.order === 'asc';
      if (filter.status === 'pending') {
        if (c !== null && !('insertedAt' in c)) throw new TypeError('pending transactions take an {insertedAt, hash} cursor');
        return takePage(idx.pending, page.limit, { cursor: c === null ? null : pendingVs(c), backward, keep });
      }
      if (c !== null && !('blockNumber' in c)) throw new TypeError('validated transactions take a {blockNumber, index} cursor');
      // narrow the candidates by one index; `keep` applies the whole filter either way
      const lists =
        address !== undefined
          ? sides(direction, idx.byFrom.get(address) ?? NO_ROWS, idx.byTo.get(address) ?? NO_ROWS)
          : kinds !== undefined
            ? [...kinds].map((k) => idx.byKind.get(k) ?? NO_ROWS)
            : methods !== undefined
              ? [...methods].map((m) => idx.byMethod.get(m) ?? NO_ROWS)
              : [idx.validated];
      return takeUnionPage(lists, minedOrder, page.limit, {
        cursor: c === null ? null : minedVs(c),
        window: rangeDesc(blocks, (t: TransactionRecord) => t.blockNumber ?? -1),
        backward,
        keep,
      });
    },

    async listInternalTransactions(filter: InternalTransactionFilter, page) {
      const c = page.after;
      const { address, transactionHash, blocks } = filter;
      const direction = filter.direction ?? 'any';
      const keep =
        address === undefined ? undefined : (r: InternalTransactionRecord) => touches(address, direction, r.from, [r.to, r.createdContract]);
      if (transactionHash !== undefined) {
        const rows = s.consensusBlockOf(transactionHash)?.internalByTx.get(transactionHash) ?? NO_ROWS;
        return takePage(rows, page.limit, {
          cursor: c === null ? null : internalInTxVs(c),
          window: rangeAsc(blocks, (r: InternalTransactionRecord) => r.blockNumber),
          backward: page.order === 'desc',
          keep,
        });
      }
      const idx = views().internal;
      const lists = address === undefined ? [idx.all] : sides(direction, idx.byFrom.get(address) ?? NO_ROWS, idx.byTo.get(address) ?? NO_ROWS);
      return takeUnionPage(lists, internalOrder, page.limit, {
        cursor: c === null ? null : internalVs(c),
        window: rangeDesc(blocks, (r: InternalTransactionRecord) => r.blockNumber),
        backward: page.order === 'asc',
        keep,
      });
    },

    async countTokenTransfers({ tokenAddress, tokenId }) {
      const v = views();
      return (tokenId === undefined ? (v.transfers.byToken.get(tokenAddress) ?? NO_ROWS) : v.transfersOfId(tokenAddress, tokenId)).length;
    },

    async listTokenTransfers(filter: TokenTransferFilter, page) {
      const { tokenAddress, tokenId, transactionHash, address, blocks } = filter;
      const direction = filter.direction ?? 'any';
      const types = filter.types === undefined ? undefined : new Set(filter.types);
      const methods = filter.methodIds === undefined ? undefined : new Set(filter.methodIds);
      const keep = (t: TokenTransferRecord): boolean =>
        (tokenAddress === undefined || t.tokenAddress === tokenAddress) &&
        (tokenId === undefined || t.tokenIds.includes(tokenId)) &&
        (types === undefined || types.has(t.tokenType)) &&
        (methods === undefined || (t.methodId !== null && methods.has(t.methodId))) &&
        (address === undefined || touches(address, direction, t.from, [t.to]));
      const c = page.after;
      const inclusive = c?.inclusive === true;
      if (transactionHash !== undefined) {
        const rows = s.consensusBlockOf(transactionHash)?.transfersByTx.get(transactionHash) ?? NO_ROWS;
        return takePage(rows, page.limit, {
          cursor: c === null ? null : transferInTxVs(c),
          inclusive,
          window: rangeAsc(blocks, (t: TokenTransferRecord) => t.blockNumber),
          backward: page.order === 'desc',
          keep,
        });
      }
      const v = views();
      const lists =
        tokenAddress !== undefined && tokenId !== undefined
          ? [v.transfersOfId(tokenAddress, tokenId)]
          : address !== undefined
            ? sides(direction, v.transfers.byFrom.get(address) ?? NO_ROWS, v.transfers.byTo.get(address) ?? NO_ROWS)
            : tokenAddress !== undefined
              ? [v.transfers.byToken.get(tokenAddress) ?? NO_ROWS]
              : [v.transfers.all];
      return takeUnionPage(lists, transferOrder, page.limit, {
        cursor: c === null ? null : transferVs(c),
        inclusive,
        window: rangeDesc(blocks, (t: TokenTransferRecord) => t.blockNumber),
        backward: page.order === 'asc',
        keep,
      });
    },

    async listCoinBalances(filter, page): Promise<readonly CoinBalanceRecord[]> {
      const rows = views().coinBalances.get(filter.address) ?? NO_ROWS;
      const c = page.after;
      return takePage(rows, page.limit, {
        cursor: c === null ? null : coinBalanceVs(c),
        window: rangeDesc(filter.blocks, (r: CoinBalanceRecord) => r.blockNumber),
        backward: page.order === 'asc',
      });
    },

    async listLogs(filter, page) {
      const { transactionHash, address, blocks } = filter;
      const c = page.after;
      const keep = address === undefined ? undefined : (l: LogRecord) => l.address === address;
      if (transactionHash !== undefined) {
        const rows = s.consensusBlockOf(transactionHash)?.logsByTx.get(transactionHash) ?? NO_ROWS;
        return takePage(rows, page.limit, {
          cursor: c === null ? null : logInTxVs(c),
          window: rangeAsc(blocks, (l: LogRecord) => l.blockNumber),
          backward: page.order === 'desc',
          keep,
        });
      }
      const idx = views().logs;
      const rows = address === undefined ? idx.all : (idx.byAddress.get(address) ?? NO_ROWS);
      return takePage(rows, page.limit, {
        cursor: c === null ? null : logVs(c),
        window: rangeDesc(blocks, (l: LogRecord) => l.blockNumber),
        backward: page.order === 'asc',
      });
    },

    async listTokenBalances(filter, page): Promise<readonly CurrentTokenBalance[]> {
      return tokenBalances(filter, page);
    },

    async listTokenHoldings(filter, page): Promise<readonly TokenHolding[]> {
      const v = views();
      return tokenBalances(filter, page).map((b) => ({ ...b, token: v.token(b.tokenAddress) }));
    },

    async listTokenHolders(filter, page): Promise<readonly CurrentTokenBalance[]> {
      const c = page.after;
      return takePage(views().tokenHolders(filter.tokenAddress, filter.tokenId), page.limit, {
        cursor: c === null ? null : holderVs(c),
        backward: page.order === 'asc',
      });
    },

    async listNftCollections(filter: NftCollectionFilter, page): Promise<readonly NftCollectionRecord[]> {
      const v = views();
      const types = new Set<NftTokenType>(filter.types);
      const shown = pageSize(filter.holdings);
      /** `${type}|${token}` → collection with its held ids (ERC-1155/404) */
      const groups = new Map<string, { tokenType: NftTokenType; tokenAddress: Address; amount: bigint; held: { tokenId: bigint; value: bigint }[] }>();
      for (const b of v.holderBalances(filter.holder)) {
        if (b.value <= 0n) continue;
        const t = b.tokenType;
        if (t === 'ERC-721') {
          if (b.tokenId !== null || !types.has(t)) continue;
          groups.set(`${t}|${b.tokenAddress}`, { tokenType: t, tokenAddress: b.tokenAddress, amount: b.value, held: [] });
        } else if (t === 'ERC-1155' || t === 'ERC-404') {
          if (b.tokenId === null || !types.has(t)) continue;
          const key = `${t}|${b.tokenAddress}`;
          let g = groups.get(key);
          if (g === undefined) groups.set(key, (g = { tokenType: t, tokenAddress: b.tokenAddress, amount: 0n, held: [] }));
          g.amount += 1n;
          g.held.push({ tokenId: b.tokenId, value: b.value });
        }
      }
      const c = page.after;
      // the groups in collectionOrder are the list's 'asc' order
      const chosen = takePage([...groups.values()].sort(collectionOrder), page.limit, {
        cursor: c === null ? null : collectionVs(c),
        backward: page.order === 'desc',
      });
      return chosen.map((g) => {
        const holdings =
          g.tokenType === 'ERC-721'
            ? v.ownedErc721(filter.holder, g.tokenAddress).slice(0, shown).map((tokenId) => ({ tokenId, value: 1n }))
            : g.held.sort((a, b) => tokenIdDesc(a.tokenId, b.tokenId)).slice(0, shown);
        return Object.freeze({
          tokenAddress: g.tokenAddress,
          tokenType: g.tokenType,
          amount: g.amount,
          holdings: Object.freeze(holdings.map((h) => Object.freeze(h))),
        });
      });
    },

    async listTokenInstances(filter, page): Promise<readonly HeldTokenInstance[]> {
      const v = views();
      const { tokenAddress, holder } = filter;
      const c = page.after;
      const walk = { cursor: c === null ? null : instanceVs(c), backward: page.order === 'asc' };
      if (holder === undefined) {
        return takePage(v.instanceIds(tokenAddress), page.limit, walk).map((id) => held(v.instance(tokenAddress, id), null));
      }
      // candidate ids: ERC-721 ids the holder owns by transfers, and ids it has a balance of
      const candidates = new Set<bigint>(v.ownedErc721(holder, tokenAddress));
      for (const b of v.holderBalances(holder)) {
        if (b.tokenAddress === tokenAddress && b.tokenId !== null && b.value > 0n) candidates.add(b.tokenId);
      }
      const heldBy = (id: bigint): HeldTokenInstance | null => {
        const instance = v.instance(tokenAddress, id);
        if (instance === null) return null;
        if (instance.tokenType === 'ERC-721') return instance.owner === holder ? held(instance, 1n) : null;
        const value = v.balanceOf(holder, tokenAddress, id);
        return value > 0n ? held(instance, value) : null;
      };
      const out: HeldTokenInstance[] = [];
      const keep = (id: bigint): boolean => {
        const h = heldBy(id);
        if (h !== null) out.push(h);
        return h !== null;
      };
      takePage([...candidates].sort(tokenIdDesc), page.limit, { ...walk, keep });
      return out;
    },

    async listWithdrawals(filter, page) {
      return listWithdrawals(s, filter, page);
    },

    async getWithdrawalTotals() {
      return { count: s.withdrawalTotals.count, sum: s.withdrawalTotals.sum };
    },

    async listStateChanges(transactionHash) {
      return [...(s.consensusBlockOf(transactionHash)?.stateChangesByTx.get(transactionHash) ?? NO_ROWS)];
    },

    async getCoinBalance(address) {
      return s.coinBalances.current(address)?.value ?? null;
    },

    async getTransactionTrace(transactionHash) {
      return [...(s.framesByTx.get(transactionHash) ?? NO_ROWS)];
    },

    async getContracts(addresses) {
      const out: ContractCodeRecord[] = [];
      for (const a of new Set(addresses)) {
        const c = s.contracts.current(a);
        if (c !== undefined) out.push(c);
      }
      return out;
    },

    async listContracts(filter, page) {
      const needle = filter.addressContains?.toLowerCase();
      const rows = allContracts(s).filter((c) => needle === undefined || c.address.includes(needle));
      // desc: (blockNumber DESC, address DESC); asc: the exact reverse
      const desc = (x: ContractCodeRecord, y: ContractCodeRecord): number =>
        y.blockNumber - x.blockNumber || (x.address < y.address ? 1 : x.address > y.address ? -1 : 0);
      const cmp = page.order === 'desc' ? desc : (x: ContractCodeRecord, y: ContractCodeRecord) => desc(y, x);
      rows.sort(cmp);
      const after = page.after;
      const past = after === null ? rows : rows.filter((r) => cmp(r, { ...r, blockNumber: after.blockNumber, address: after.address }) > 0);
      return past.slice(0, Math.max(0, page.limit));
    },

    async countContracts(filter) {
      const since = filter.createdSince;
      return allContracts(s).filter((c) => since === undefined || c.timestamp >= since).length;
    },
  };
}

/** Whether an address filter matches a row sent by `from` and received by `to` (any of them). */
function touches(address: Address, direction: Direction, from: Address, to: readonly (Address | null)[]): boolean {
  const sent = from === address;
  const received = to.includes(address);
  return direction === 'from' ? sent : direction === 'to' ? received : sent || received;
}

/** The lists an address filter reads: the sent side, the received side, or both. */
function sides<T>(direction: Direction, sent: readonly T[], received: readonly T[]): (readonly T[])[] {
  return direction === 'from' ? [sent] : direction === 'to' ? [received] : [sent, received];
}

function held(instance: TokenInstanceRecord | null, value: bigint | null): HeldTokenInstance {
  if (instance === null) throw new Error('memory store: instance index out of sync');
  return Object.freeze({ instance, value });
}

/** Every creation record of the consensus blocks. */
function allContracts(s: State): ContractCodeRecord[] {
  const out: ContractCodeRecord[] = [];
  for (const { stored } of s.blocks.values()) if (stored.block.consensus) out.push(...(stored.bundle.contractCodes ?? []));
  return out;
}
