/**
 * The DataSource over State: point lookups from the keyed indexes, lists from the sorted
 * views, each following the order and cursor rule of lib/ports.ts (see compare.ts).
 */
import type {
  Address,
  AddressRecord,
  BlockRecord,
  Hash,
  NftTokenType,
  TokenInstanceRecord,
  TokenRecord,
  TokenTransferRecord,
  TransactionRecord,
} from '../../lib/domain/records.ts';
import type {
  BlockFilter,
  BlockRef,
  CurrentTokenBalance,
  VersionedDataSource,
  HeldTokenInstance,
  InternalTransactionFilter,
  NftCollectionFilter,
  NftCollectionRecord,
  Page,
  TokenInstanceKey,
  TokenTransferFilter,
  TransactionCursor,
  TransactionFilter,
} from '../../lib/ports.ts';
import {
  balanceAfter,
  blockAfter,
  collectionAfter,
  collectionOrder,
  instanceAfter,
  internalAfter,
  internalInTxAfter,
  internalOrder,
  minedAfter,
  minedOrder,
  pendingAfter,
  tokenIdDesc,
  transferAfter,
  transferInTxAfter,
} from './compare.ts';
import { pageSize, takePage, takeUnionPage } from './paging.ts';
import type { State } from './state.ts';
import { Views } from './views.ts';

const NO_ROWS: readonly never[] = Object.freeze([]);
const HOLDINGS_SHOWN = 9;

export function createReader(s: State): VersionedDataSource {
  let current = new Views(s);
  /** Views of the current state version (rebuilt lazily after a mutation). */
  const views = (): Views => (current.version === s.version ? current : (current = new Views(s)));

  const getTransaction = (hash: Hash): TransactionRecord | null =>
    s.consensusBlockOf(hash)?.transactions.get(hash) ??
    s.pending.get(hash) ??
    s.otherBlockOf(hash)?.transactions.get(hash) ??
    null;

  return {
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
      if (filter.kind === 'uncle') return [];
      const idx = views().blocks;
      const rows =
        filter.miner === undefined
          ? filter.kind === 'block'
            ? idx.consensus
            : idx.reorg
          : ((filter.kind === 'block' ? idx.consensusByMiner : idx.reorgByMiner).get(filter.miner) ?? NO_ROWS);
      return takePage(rows, page.after === null ? null : blockAfter(page.after), page.limit);
    },

    async listTransactions(filter: TransactionFilter, page: Page<TransactionCursor>) {
      const idx = views().transactions;
      const kinds = filter.kinds === undefined ? undefined : new Set(filter.kinds);
      const methods = filter.methodIds === undefined ? undefined : new Set(filter.methodIds);
      const keep = (t: TransactionRecord): boolean =>
        (kinds === undefined || t.kinds.some((k) => kinds.has(k))) &&
        (methods === undefined || (t.methodId !== null && methods.has(t.methodId)));
      const c = page.after;
      if (filter.status === 'pending') {
        if (c !== null && !('insertedAt' in c)) throw new TypeError('pending transactions take an {insertedAt, hash} cursor');
        return takePage(idx.pending, c === null ? null : pendingAfter(c), page.limit, keep);
      }
      if (c !== null && !('blockNumber' in c)) throw new TypeError('validated transactions take a {blockNumber, index} cursor');
      // narrow the candidates by one index; `keep` applies the whole filter either way
      const lists =
        kinds !== undefined
          ? [...kinds].map((k) => idx.byKind.get(k) ?? NO_ROWS)
          : methods !== undefined
            ? [...methods].map((m) => idx.byMethod.get(m) ?? NO_ROWS)
            : [idx.validated];
      return takeUnionPage(lists, minedOrder, c === null ? null : minedAfter(c), page.limit, keep);
    },

    async listInternalTransactions(filter: InternalTransactionFilter, page) {
      const c = page.after;
      if (filter.transactionHash !== undefined) {
        const rows = s.consensusBlockOf(filter.transactionHash)?.internalByTx.get(filter.transactionHash) ?? NO_ROWS;
        return takePage(rows, c === null ? null : internalInTxAfter(c), page.limit);
      }
      const idx = views().internal;
      const after = c === null ? null : internalAfter(c);
      if (filter.address === undefined) return takePage(idx.all, after, page.limit);
      const from = idx.byFrom.get(filter.address) ?? NO_ROWS;
      const to = idx.byTo.get(filter.address) ?? NO_ROWS;
      const lists = filter.direction === 'from' ? [from] : filter.direction === 'to' ? [to] : [from, to];
      return takeUnionPage(lists, internalOrder, after, page.limit);
    },

    async listTokenTransfers(filter: TokenTransferFilter, page) {
      const { tokenAddress, tokenId, transactionHash } = filter;
      const types = filter.types === undefined ? undefined : new Set(filter.types);
      const keep = (t: TokenTransferRecord): boolean =>
        (tokenAddress === undefined || t.tokenAddress === tokenAddress) &&
        (tokenId === undefined || t.tokenIds.includes(tokenId)) &&
        (types === undefined || types.has(t.tokenType));
      const c = page.after;
      if (transactionHash !== undefined) {
        const rows = s.consensusBlockOf(transactionHash)?.transfersByTx.get(transactionHash) ?? NO_ROWS;
        return takePage(rows, c === null ? null : transferInTxAfter(c), page.limit, keep);
      }
      const v = views();
      const rows =
        tokenAddress !== undefined && tokenId !== undefined
          ? v.transfersOfId(tokenAddress, tokenId)
          : tokenAddress !== undefined
            ? (v.transfers.byToken.get(tokenAddress) ?? NO_ROWS)
            : v.transfers.all;
      return takePage(rows, c === null ? null : transferAfter(c), page.limit, keep);
    },

    async listLogs(filter, page) {
      const rows = s.consensusBlockOf(filter.transactionHash)?.logsByTx.get(filter.transactionHash) ?? NO_ROWS;
      const c = page.after;
      return takePage(rows, c === null ? null : (l) => l.index > c.index, page.limit);
    },

    async listTokenBalances(filter, page): Promise<readonly CurrentTokenBalance[]> {
      const types = filter.types === undefined ? undefined : new Set(filter.types);
      const rows = views().holderBalances(filter.holder);
      const c = page.after;
      return takePage(rows, c === null ? null : balanceAfter(c), page.limit, (b) => types === undefined || types.has(b.tokenType));
    },

    async listNftCollections(filter: NftCollectionFilter, page): Promise<readonly NftCollectionRecord[]> {
      const v = views();
      const types = new Set<NftTokenType>(filter.types);
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
      const chosen = takePage([...groups.values()].sort(collectionOrder), c === null ? null : collectionAfter(c), page.limit);
      return chosen.map((g) => {
        const holdings =
          g.tokenType === 'ERC-721'
            ? v.ownedErc721(filter.holder, g.tokenAddress).slice(0, HOLDINGS_SHOWN).map((tokenId) => ({ tokenId, value: 1n }))
            : g.held.sort((a, b) => tokenIdDesc(a.tokenId, b.tokenId)).slice(0, HOLDINGS_SHOWN);
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
      const after = c === null ? null : instanceAfter(c);
      if (holder === undefined) {
        return takePage(v.instanceIds(tokenAddress), after, page.limit).map((id) => held(v.instance(tokenAddress, id), null));
      }
      // candidate ids: ERC-721 ids the holder owns by transfers, and ids it has a balance of
      const candidates = new Set<bigint>(v.ownedErc721(holder, tokenAddress));
      for (const b of v.holderBalances(holder)) {
        if (b.tokenAddress === tokenAddress && b.tokenId !== null && b.value > 0n) candidates.add(b.tokenId);
      }
      const out: HeldTokenInstance[] = [];
      const n = pageSize(page.limit);
      for (const id of [...candidates].sort(tokenIdDesc)) {
        if (out.length >= n) break;
        if (after !== null && !after(id)) continue;
        const instance = v.instance(tokenAddress, id);
        if (instance === null) continue;
        if (instance.tokenType === 'ERC-721') {
          if (instance.owner === holder) out.push(held(instance, 1n));
        } else {
          const value = v.balanceOf(holder, tokenAddress, id);
          if (value > 0n) out.push(held(instance, value));
        }
      }
      return out;
    },

    async listStateChanges(transactionHash) {
      return [...(s.consensusBlockOf(transactionHash)?.stateChangesByTx.get(transactionHash) ?? NO_ROWS)];
    },
  };
}

function held(instance: TokenInstanceRecord | null, value: bigint | null): HeldTokenInstance {
  if (instance === null) throw new Error('memory store: instance index out of sync');
  return Object.freeze({ instance, value });
}
