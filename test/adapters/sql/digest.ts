/**
 * Every DataSource read over a chain's keys: each lookup, and each list walked to its end by
 * the cursor of its last record with a small page size. Two stores holding the same data must
 * produce equal digests, entry by entry.
 */
import type {
  Address,
  BlockBundle,
  BlockRecord,
  LogRecord,
  TokenTransferRecord,
  Hash,
  Hex,
  NftTokenType,
  TokenType,
  TransactionKind,
  TransactionRecord,
} from '../../../lib/domain/records.ts';
import { NFT_TOKEN_TYPES, TOKEN_TYPES, TRANSACTION_KINDS } from '../../../lib/domain/records.ts';
import type {
  CurrentTokenBalance,
  DataSource,
  HeldTokenInstance,
  NftCollectionRecord,
  TokenInstanceKey,
  TransactionCursor,
} from '../../../lib/ports.ts';

export interface DigestEntry {
  readonly label: string;
  readonly value: unknown;
}

const UNKNOWN_HASH = `0x${'ab'.repeat(32)}` as Hash;
const UNKNOWN_ADDRESS = `0x${'cd'.repeat(20)}` as Address;

/** All pages of a list, following the cursor of the last record; fails on a runaway walk. */
export async function walk<T, C>(
  list: (after: C | null, limit: number) => Promise<readonly T[]>,
  cursorOf: (last: T) => C,
  limit: number,
): Promise<T[]> {
  const out: T[] = [];
  let after: C | null = null;
  for (let pages = 0; pages < 5000; pages++) {
    const page = await list(after, limit);
    out.push(...page);
    if (page.length < limit) return out;
    after = cursorOf(page[page.length - 1]);
  }
  throw new Error('walk: more than 5000 pages');
}

/** The keys a digest visits, taken from the bundles written (not from a store). */
export interface ChainKeys {
  readonly heights: readonly number[];
  readonly blockHashes: readonly Hash[];
  readonly miners: readonly Address[];
  readonly transactions: readonly Hash[];
  readonly addresses: readonly Address[];
  readonly tokens: readonly Address[];
  readonly holders: readonly Address[];
  readonly methodIds: readonly Hex[];
  readonly instances: readonly TokenInstanceKey[];
  /** (token, id) pairs seen in transfers */
  readonly transferIds: readonly TokenInstanceKey[];
  /** token → the holders that ever had a balance record of it */
  readonly tokenHolders: ReadonlyMap<Address, readonly Address[]>;
}

export function chainKeys(bundles: readonly BlockBundle[], pending: readonly TransactionRecord[] = []): ChainKeys {
  const heights = new Set<number>();
  const blockHashes = new Set<Hash>();
  const miners = new Set<Address>();
  const txs = new Set<Hash>();
  const addresses = new Set<Address>();
  const tokens = new Set<Address>();
  const holders = new Set<Address>();
  const methods = new Set<Hex>();
  const instances = new Map<string, TokenInstanceKey>();
  const ids = new Map<string, TokenInstanceKey>();
  const tokenHolders = new Map<Address, Set<Address>>();
  for (const b of bundles) {
    heights.add(b.block.number);
    blockHashes.add(b.block.hash);
    miners.add(b.block.miner);
    for (const t of b.transactions) {
      txs.add(t.hash);
      addresses.add(t.from);
      if (t.to !== null) addresses.add(t.to);
      if (t.createdContract !== null) addresses.add(t.createdContract);
      if (t.methodId !== null) methods.add(t.methodId);
    }
    for (const i of b.internalTransactions) {
      addresses.add(i.from);
      if (i.to !== null) addresses.add(i.to);
      if (i.createdContract !== null) addresses.add(i.createdContract);
    }
    for (const a of b.addresses) addresses.add(a.hash);
    for (const t of b.tokens) tokens.add(t.address);
    for (const tt of b.tokenTransfers) {
      tokens.add(tt.tokenAddress);
      for (const id of tt.tokenIds) ids.set(`${tt.tokenAddress}|${id}`, { tokenAddress: tt.tokenAddress, tokenId: id });
    }
    for (const bal of b.tokenBalances) {
      holders.add(bal.holder);
      tokens.add(bal.tokenAddress);
      const set = tokenHolders.get(bal.tokenAddress) ?? new Set<Address>();
      set.add(bal.holder);
      tokenHolders.set(bal.tokenAddress, set);
    }
    for (const i of b.tokenInstances) instances.set(`${i.tokenAddress}|${i.tokenId}`, { tokenAddress: i.tokenAddress, tokenId: i.tokenId });
  }
  for (const t of pending) {
    txs.add(t.hash);
    if (t.methodId !== null) methods.add(t.methodId);
  }
  const maxHeight = Math.max(0, ...heights);
  return {
    heights: [...heights, maxHeight + 1, maxHeight + 2],
    blockHashes: [...blockHashes, UNKNOWN_HASH],
    miners: [...miners, UNKNOWN_ADDRESS],
    transactions: [...txs, UNKNOWN_HASH],
    addresses: [...addresses, UNKNOWN_ADDRESS],
    tokens: [...tokens, UNKNOWN_ADDRESS],
    holders: [...holders, UNKNOWN_ADDRESS],
    methodIds: [...methods, '0xdeadbeef'],
    instances: [...instances.values(), { tokenAddress: UNKNOWN_ADDRESS, tokenId: 1n }],
    transferIds: [...ids.values()],
    tokenHolders: new Map([...tokenHolders].map(([t, hs]) => [t, [...hs, UNKNOWN_ADDRESS]])),
  };
}

export interface DigestOptions {
  /** page size of the walks (default 7) */
  readonly limit?: number;
  /** visit fewer keys (for repeated snapshots): every n-th key of the big key sets */
  readonly stride?: number;
  /** fewer filter combinations (for repeated snapshots) */
  readonly light?: boolean;
}

/** Subsets of a list of options: all singles, all pairs, and the whole list. */
function combos<T>(xs: readonly T[]): T[][] {
  const out: T[][] = xs.map((x) => [x]);
  for (let i = 0; i < xs.length; i++) for (let j = i + 1; j < xs.length; j++) out.push([xs[i], xs[j]]);
  out.push([...xs]);
  return out;
}

export async function digest(ds: DataSource, keys: ChainKeys, options: DigestOptions = {}): Promise<DigestEntry[]> {
  const limit = options.limit ?? 7;
  const stride = options.stride ?? 1;
  const every = <T>(xs: readonly T[]): T[] => xs.filter((_, i) => i % stride === 0 || i === xs.length - 1);
  const out: DigestEntry[] = [];
  const add = (label: string, value: unknown) => out.push({ label, value });

  // ---- lookups -------------------------------------------------------------------------------
  add('getHighestBlockNumber', await ds.getHighestBlockNumber());
  for (const n of every(keys.heights)) add(`getBlock number ${n}`, await ds.getBlock({ number: n }));
  for (const h of every(keys.blockHashes)) add(`getBlock hash ${h}`, await ds.getBlock({ hash: h }));
  for (const h of every(keys.transactions)) add(`getTransaction ${h}`, await ds.getTransaction(h));
  add('getAddresses all', await ds.getAddresses([...keys.addresses, ...keys.addresses.slice(0, 3)]));
  add('getTokens all', await ds.getTokens(keys.tokens));
  for (const a of keys.tokens) add(`getToken ${a}`, await ds.getToken(a));
  add('getTokenInstances all', await ds.getTokenInstances([...keys.instances, ...keys.transferIds]));
  for (const k of every(keys.instances)) add(`getTokenInstance ${k.tokenAddress}#${k.tokenId}`, await ds.getTokenInstance(k));

  // ---- blocks --------------------------------------------------------------------------------
  for (const kind of ['block', 'reorg', 'uncle'] as const) {
    for (const miner of [undefined, ...keys.miners]) {
      add(
        `listBlocks ${kind} ${miner ?? '*'}`,
        await walk((after, l) => ds.listBlocks({ kind, ...(miner === undefined ? {} : { miner }) }, { after, limit: l }), (b: BlockRecord) => ({ number: b.number }), limit),
      );
    }
  }

  // ---- transactions --------------------------------------------------------------------------
  const light = options.light === true;
  const kindSets: (readonly TransactionKind[] | undefined)[] = light
    ? [undefined, ['coin_transfer', 'token_transfer']]
    : [undefined, [], ...TRANSACTION_KINDS.map((k) => [k]), ['coin_transfer', 'token_transfer'], [...TRANSACTION_KINDS]];
  const methodSets: (readonly Hex[] | undefined)[] = light
    ? [undefined, keys.methodIds.slice(0, 3)]
    : [undefined, [], ...keys.methodIds.map((m) => [m]), keys.methodIds.slice(0, 3)];
  for (const kinds of kindSets) {
    for (const methodIds of kinds === undefined ? methodSets : [undefined, keys.methodIds.slice(0, 3)]) {
      const filter = { ...(kinds === undefined ? {} : { kinds }), ...(methodIds === undefined ? {} : { methodIds }) };
      const tag = `kinds=${kinds?.join('+') ?? '*'} methods=${methodIds?.join('+') ?? '*'}`;
      add(
        `listTransactions validated ${tag}`,
        await walk(
          (after, l) => ds.listTransactions({ status: 'validated', ...filter }, { after, limit: l }),
          (t: TransactionRecord): TransactionCursor => ({ blockNumber: t.blockNumber ?? -1, index: t.index ?? -1 }),
          limit,
        ),
      );
      add(
        `listTransactions pending ${tag}`,
        await walk((after, l) => ds.listTransactions({ status: 'pending', ...filter }, { after, limit: l }), (t: TransactionRecord): TransactionCursor => ({ insertedAt: t.insertedAt, hash: t.hash }), limit),
      );
    }
  }
  add('listTransactions validated limit 0', await ds.listTransactions({ status: 'validated' }, { after: null, limit: 0 }));

  // ---- internal transactions -----------------------------------------------------------------
  const itCursor = (r: { blockNumber: number; transactionIndex: number; index: number }) => ({
    blockNumber: r.blockNumber,
    transactionIndex: r.transactionIndex,
    index: r.index,
  });
  add('listInternalTransactions all', await walk((after, l) => ds.listInternalTransactions({}, { after, limit: l }), itCursor, limit));
  for (const address of every(keys.addresses)) {
    for (const direction of [undefined, 'from', 'to'] as const) {
      add(
        `listInternalTransactions ${address} ${direction ?? '*'}`,
        await walk(
          (after, l) => ds.listInternalTransactions({ address, ...(direction === undefined ? {} : { direction }) }, { after, limit: l }),
          itCursor,
          limit,
        ),
      );
    }
  }
  for (const transactionHash of every(keys.transactions)) {
    add(`listInternalTransactions tx ${transactionHash}`, await walk((after, l) => ds.listInternalTransactions({ transactionHash }, { after, limit: l }), itCursor, limit));
  }

  // ---- token transfers -----------------------------------------------------------------------
  const ttCursor = (r: { blockNumber: number; logIndex: number }) => ({ blockNumber: r.blockNumber, logIndex: r.logIndex });
  const typeSets: (readonly TokenType[] | undefined)[] = light
    ? [undefined, ['ERC-721', 'ERC-1155']]
    : [undefined, [], ...TOKEN_TYPES.map((t) => [t]), ['ERC-721', 'ERC-1155'], [...TOKEN_TYPES]];
  for (const types of typeSets) {
    const f = types === undefined ? {} : { types };
    const tag = types?.join('+') ?? '*';
    const all = await walk((after, l) => ds.listTokenTransfers(f, { after, limit: l }), ttCursor, limit);
    add(`listTokenTransfers all types=${tag}`, all);
    // inclusive cursors re-read the record at the cursor
    for (const at of all.filter((_, i) => i % 17 === 5)) {
      add(`listTokenTransfers inclusive ${at.blockNumber}/${at.logIndex} types=${tag}`, await ds.listTokenTransfers(f, { after: { ...ttCursor(at), inclusive: true }, limit: 3 }));
    }
  }
  for (const tokenAddress of keys.tokens) {
    for (const types of light ? ([undefined] as const) : ([undefined, ['ERC-20'], ['ERC-721', 'ERC-1155']] as const)) {
      add(
        `listTokenTransfers token ${tokenAddress} types=${types?.join('+') ?? '*'}`,
        await walk((after, l) => ds.listTokenTransfers({ tokenAddress, ...(types === undefined ? {} : { types }) }, { after, limit: l }), ttCursor, limit),
      );
    }
  }
  for (const { tokenAddress, tokenId } of every(keys.transferIds)) {
    add(`listTokenTransfers id ${tokenAddress}#${tokenId}`, await walk((after, l) => ds.listTokenTransfers({ tokenAddress, tokenId }, { after, limit: l }), ttCursor, limit));
  }
  for (const { tokenId } of keys.transferIds.slice(0, 3)) {
    add(`listTokenTransfers id-only ${tokenId}`, await walk((after, l) => ds.listTokenTransfers({ tokenId }, { after, limit: l }), ttCursor, limit));
  }
  for (const transactionHash of every(keys.transactions)) {
    const rows = await walk(
      (after, l) => ds.listTokenTransfers({ transactionHash }, { after, limit: l }),
      (r: TokenTransferRecord) => ({ blockNumber: r.blockNumber, logIndex: r.logIndex }),
      limit,
    );
    add(`listTokenTransfers tx ${transactionHash}`, rows);
    const first = rows[0];
    if (first !== undefined) {
      add(
        `listTokenTransfers tx ${transactionHash} narrowed`,
        await ds.listTokenTransfers(
          { transactionHash, tokenAddress: first.tokenAddress, types: [first.tokenType], ...(first.tokenIds[0] === undefined ? {} : { tokenId: first.tokenIds[0] }) },
          { after: { blockNumber: first.blockNumber, logIndex: first.logIndex, inclusive: true }, limit: 50 },
        ),
      );
    }
  }

  // ---- logs, state changes -------------------------------------------------------------------
  for (const transactionHash of every(keys.transactions)) {
    add(`listLogs ${transactionHash}`, await walk((after, l) => ds.listLogs({ transactionHash }, { after, limit: l }), (r: LogRecord) => ({ index: r.index }), limit));
    add(`listStateChanges ${transactionHash}`, await ds.listStateChanges(transactionHash));
  }

  // ---- balances, collections, instances ------------------------------------------------------
  for (const holder of every(keys.holders)) {
    const balanceTypes = light ? ([undefined] as const) : ([undefined, [], ['ERC-20'], ['ERC-721', 'ERC-1155', 'ERC-404'], ['ERC-7984', 'ERC-20']] as const);
    for (const types of balanceTypes) {
      add(
        `listTokenBalances ${holder} types=${types?.join('+') ?? '*'}`,
        await walk(
          (after, l) => ds.listTokenBalances({ holder, ...(types === undefined ? {} : { types }) }, { after, limit: l }),
          (b: CurrentTokenBalance) => ({ value: b.value, tokenAddress: b.tokenAddress, tokenId: b.tokenId }),
          limit,
        ),
      );
    }
    for (const types of light ? [[...NFT_TOKEN_TYPES]] : combos<NftTokenType>(NFT_TOKEN_TYPES)) {
      add(
        `listNftCollections ${holder} types=${types.join('+')}`,
        await walk((after, l) => ds.listNftCollections({ holder, types }, { after, limit: l }), (c: NftCollectionRecord) => ({ tokenType: c.tokenType, tokenAddress: c.tokenAddress }), limit),
      );
    }
  }
  for (const tokenAddress of keys.tokens) {
    add(
      `listTokenInstances ${tokenAddress}`,
      await walk((after, l) => ds.listTokenInstances({ tokenAddress }, { after, limit: l }), (i: HeldTokenInstance) => ({ tokenId: i.instance.tokenId }), limit),
    );
    for (const holder of every(keys.tokenHolders.get(tokenAddress) ?? [])) {
      add(
        `listTokenInstances ${tokenAddress} holder ${holder}`,
        await walk((after, l) => ds.listTokenInstances({ tokenAddress, holder }, { after, limit: l }), (i: HeldTokenInstance) => ({ tokenId: i.instance.tokenId }), limit),
      );
    }
  }
  return out;
}
