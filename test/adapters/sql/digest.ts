/**
 * Every DataSource read over a chain's keys: each lookup, and each list walked to its end by
 * the cursor of its last record with a small page size. Two stores holding the same data must
 * produce equal digests, entry by entry.
 */
import type {
  AccountRecord,
  Address,
  BlockBundle,
  BlockRecord,
  CoinBalanceRecord,
  LogRecord,
  Hash,
  Hex,
  NftTokenType,
  TokenType,
  TransactionKind,
  TransactionRecord,
  WithdrawalRecord,
} from '../../../lib/domain/records.ts';
import { NFT_TOKEN_TYPES, TOKEN_TYPES, TRANSACTION_KINDS } from '../../../lib/domain/records.ts';
import { hex } from '../../../lib/domain/hex.ts';
import type {
  AccountCursor,
  BlockRange,
  CurrentTokenBalance,
  DataSource,
  HeldTokenInstance,
  NftCollectionRecord,
  Page,
  TokenInstanceKey,
  TransactionCursor,
} from '../../../lib/ports.ts';

export interface DigestEntry {
  readonly label: string;
  readonly value: unknown;
}

const DIRECTIONS = [undefined, 'from', 'to'] as const;
const ORDERS = ['desc', 'asc'] as const;
const rangeTag = (r: BlockRange) => `${r.from ?? ''}..${r.to ?? ''}`;

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
  /** contracts that emitted logs */
  readonly logAddresses: readonly Address[];
  /** recipients of withdrawals */
  readonly withdrawalRecipients: readonly Address[];
  /** heights holding withdrawals */
  readonly withdrawalHeights: readonly number[];
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
  const logAddresses = new Set<Address>();
  const withdrawalRecipients = new Set<Address>();
  const withdrawalHeights = new Set<number>();
  for (const b of bundles) {
    for (const w of b.withdrawals ?? []) {
      withdrawalRecipients.add(w.address);
      withdrawalHeights.add(w.blockNumber);
    }
    for (const l of b.logs) logAddresses.add(l.address);
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
    for (const p of b.proxies ?? []) addresses.add(p.proxy);
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
    methodIds: [...methods, hex('0xdeadbeef')],
    instances: [...instances.values(), { tokenAddress: UNKNOWN_ADDRESS, tokenId: 1n }],
    transferIds: [...ids.values()],
    tokenHolders: new Map([...tokenHolders].map(([t, hs]) => [t, [...hs, UNKNOWN_ADDRESS]])),
    logAddresses: [...logAddresses, UNKNOWN_ADDRESS],
    withdrawalRecipients: [...withdrawalRecipients, UNKNOWN_ADDRESS],
    withdrawalHeights: [...withdrawalHeights, maxHeight + 1],
  };
}

export interface DigestOptions {
  /** page size of the walks (default 7) */
  readonly limit?: number;
  /** visit fewer keys (for repeated snapshots): every n-th key of the big key sets */
  readonly stride?: number;
  /** fewer filter combinations and no 'asc' walks (for repeated snapshots) */
  readonly light?: boolean;
  /** walk every n-th list also in 'asc' order (default 3) */
  readonly ascEvery?: number;
}

/** Subsets of a list of options: all singles, all pairs, and the whole list. */
function combos<T>(xs: readonly T[]): T[][] {
  const out: T[][] = xs.map((x) => [x]);
  for (let i = 0; i < xs.length; i++) for (let j = i + 1; j < xs.length; j++) out.push([xs[i], xs[j]]);
  out.push([...xs]);
  return out;
}

/** the optional queries the digest reads: both built-in stores answer them */
const DIGESTED = ['listStateChanges', 'getTransactionTrace', 'listAddresses', 'listAccounts', 'getAddressCounters', 'getWithdrawalTotals', 'getProxyHistory', 'countContracts', 'sumBlocks', 'listContractActivity'] as const;
type Digestible = DataSource & Required<Pick<DataSource, (typeof DIGESTED)[number]>>;

function digestible(ds: DataSource): Digestible {
  const lacking = DIGESTED.filter((m) => ds[m] === undefined);
  if (lacking.length > 0) throw new Error(`the store lacks optional queries the digest reads: ${lacking.join(', ')}`);
  return ds as Digestible;
}

export async function digest(source: DataSource, keys: ChainKeys, options: DigestOptions = {}): Promise<DigestEntry[]> {
  const ds = digestible(source);
  const limit = options.limit ?? 7;
  const stride = options.stride ?? 1;
  const every = <T>(xs: readonly T[]): T[] => xs.filter((_, i) => i % stride === 0 || i === xs.length - 1);
  const out: DigestEntry[] = [];
  const listAddresses = ds.listAddresses.bind(ds);
  const add = (label: string, value: unknown) => out.push({ label, value });
  let lists = 0;
  /** Walk a list to its end in both orders; records both walks, returns the 'desc' one. */
  async function both<T, C>(label: string, list: (page: Page<C>) => Promise<readonly T[]>, cursorOf: (last: T) => C): Promise<T[]> {
    const desc = await walk((after: C | null, l) => list({ after, limit: l, order: 'desc' }), cursorOf, limit);
    add(`${label} desc`, desc);
    // the 'asc' walk of every n-th list (each list kind included); none in the light digest
    if (options.light !== true && lists++ % (options.ascEvery ?? 3) === 0) {
      add(`${label} asc`, await walk((after: C | null, l) => list({ after, limit: l, order: 'asc' }), cursorOf, limit));
    }
    return desc;
  }
  // open, two-sided and one-sided block ranges over the chain's heights
  const top = Math.max(0, ...keys.heights.slice(0, -2));
  const middle: BlockRange = { from: Math.floor(top / 4), to: Math.floor((3 * top) / 4) };
  const ranges: readonly BlockRange[] = options.light === true ? [middle] : [middle, { from: 0 }, { to: Math.floor(top / 3) }, { from: top + 5 }];
  const directions = options.light === true ? ([undefined] as const) : DIRECTIONS;
  /** every 4th of a key set: the address filters of the new lists over a sample */
  const sample = <T>(xs: readonly T[]): T[] => every(xs).filter((_, i) => i % 4 === 0);

  // ---- lookups -------------------------------------------------------------------------------
  add('getHighestBlockNumber', await ds.getHighestBlockNumber());
  for (const n of every(keys.heights)) add(`getBlock number ${n}`, await ds.getBlock({ number: n }));
  for (const h of every(keys.blockHashes)) add(`getBlock hash ${h}`, await ds.getBlock({ hash: h }));
  for (const h of every(keys.transactions)) add(`getTransaction ${h}`, await ds.getTransaction(h));
  add('getAddresses all', await ds.getAddresses([...keys.addresses, ...keys.addresses.slice(0, 3)]));
  add('getTokens all', await ds.getTokens(keys.tokens));
  add('getAddressViews all', await ds.getAddressViews([...keys.addresses, ...keys.tokens, ...keys.addresses.slice(0, 3)]));
  add('getProxyHistory all', await ds.getProxyHistory(keys.addresses));
  for (const a of keys.tokens) add(`getToken ${a}`, await ds.getToken(a));
  add('getTokenInstances all', await ds.getTokenInstances([...keys.instances, ...keys.transferIds]));
  for (const k of every(keys.instances)) add(`getTokenInstance ${k.tokenAddress}#${k.tokenId}`, (await ds.getTokenInstances([k]))[0] ?? null);

  // ---- blocks --------------------------------------------------------------------------------
  const blockCursor = (b: BlockRecord) => ({ number: b.number });
  for (const kind of ['block', 'reorg', 'uncle'] as const) {
    for (const miner of [undefined, ...keys.miners]) {
      await both(`listBlocks ${kind} ${miner ?? '*'}`, (page) => ds.listBlocks({ kind, ...(miner === undefined ? {} : { miner }) }, page), blockCursor);
    }
  }
  for (const blocks of ranges) {
    await both(`listBlocks range ${rangeTag(blocks)}`, (page) => ds.listBlocks({ kind: 'block', blocks }, page), blockCursor);
  }

  // ---- transactions --------------------------------------------------------------------------
  const light = options.light === true;
  const minedCursor = (t: TransactionRecord): TransactionCursor => ({ blockNumber: t.blockNumber ?? -1, index: t.index ?? -1 });
  const pendingCursor = (t: TransactionRecord): TransactionCursor => ({ insertedAt: t.insertedAt, hash: t.hash });
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
      await both(`listTransactions validated ${tag}`, (page) => ds.listTransactions({ status: 'validated', ...filter }, page), minedCursor);
      await both(`listTransactions pending ${tag}`, (page) => ds.listTransactions({ status: 'pending', ...filter }, page), pendingCursor);
    }
  }
  for (const address of sample(keys.addresses)) {
    for (const direction of directions) {
      const f = { address, ...(direction === undefined ? {} : { direction }) };
      const tag = `${address} ${direction ?? '*'}`;
      await both(`listTransactions validated address ${tag}`, (page) => ds.listTransactions({ status: 'validated', ...f }, page), minedCursor);
      await both(`listTransactions pending address ${tag}`, (page) => ds.listTransactions({ status: 'pending', ...f }, page), pendingCursor);
    }
    const narrowed = { address, kinds: ['coin_transfer', 'contract_call'] as TransactionKind[], methodIds: keys.methodIds.slice(0, 3), blocks: middle };
    await both(`listTransactions validated address ${address} narrowed`, (page) => ds.listTransactions({ status: 'validated', ...narrowed }, page), minedCursor);
  }
  for (const blocks of ranges) {
    await both(`listTransactions validated range ${rangeTag(blocks)}`, (page) => ds.listTransactions({ status: 'validated', blocks }, page), minedCursor);
    await both(`listTransactions pending range ${rangeTag(blocks)}`, (page) => ds.listTransactions({ status: 'pending', blocks }, page), pendingCursor);
  }
  add('listTransactions validated limit 0', await ds.listTransactions({ status: 'validated' }, { after: null, limit: 0, order: 'desc' }));

  // ---- internal transactions -----------------------------------------------------------------
  const itCursor = (r: { blockNumber: number; transactionIndex: number; index: number }) => ({
    blockNumber: r.blockNumber,
    transactionIndex: r.transactionIndex,
    index: r.index,
  });
  await both('listInternalTransactions all', (page) => ds.listInternalTransactions({}, page), itCursor);
  for (const blocks of ranges) {
    await both(`listInternalTransactions range ${rangeTag(blocks)}`, (page) => ds.listInternalTransactions({ blocks }, page), itCursor);
  }
  for (const address of every(keys.addresses)) {
    for (const direction of directions) {
      await both(
        `listInternalTransactions ${address} ${direction ?? '*'}`,
        (page) => ds.listInternalTransactions({ address, ...(direction === undefined ? {} : { direction }) }, page),
        itCursor,
      );
    }
    await both(`listInternalTransactions ${address} range`, (page) => ds.listInternalTransactions({ address, blocks: middle }, page), itCursor);
  }
  for (const transactionHash of every(keys.transactions)) {
    await both(`listInternalTransactions tx ${transactionHash}`, (page) => ds.listInternalTransactions({ transactionHash }, page), itCursor);
  }
  for (const address of light ? [] : every(keys.addresses).slice(0, 8)) {
    for (const transactionHash of every(keys.transactions).slice(0, 8)) {
      add(
        `listInternalTransactions tx ${transactionHash} address ${address}`,
        await ds.listInternalTransactions({ transactionHash, address, direction: 'to' }, { after: null, limit: 50, order: 'asc' }),
      );
    }
  }

  // ---- token transfers -----------------------------------------------------------------------
  const ttCursor = (r: { blockNumber: number; logIndex: number }) => ({ blockNumber: r.blockNumber, logIndex: r.logIndex });
  const typeSets: (readonly TokenType[] | undefined)[] = light
    ? [undefined, ['ERC-721', 'ERC-1155']]
    : [undefined, [], ...TOKEN_TYPES.map((t) => [t]), ['ERC-721', 'ERC-1155'], [...TOKEN_TYPES]];
  for (const types of typeSets) {
    const f = types === undefined ? {} : { types };
    const tag = types?.join('+') ?? '*';
    const all = await both(`listTokenTransfers all types=${tag}`, (page) => ds.listTokenTransfers(f, page), ttCursor);
    // inclusive cursors re-read the record at the cursor
    for (const at of all.filter((_, i) => i % 17 === 5)) {
      for (const order of light ? (['desc'] as const) : ORDERS) {
        add(
          `listTokenTransfers inclusive ${at.blockNumber}/${at.logIndex} types=${tag} ${order}`,
          await ds.listTokenTransfers(f, { after: { ...ttCursor(at), inclusive: true }, limit: 3, order }),
        );
      }
    }
  }
  for (const blocks of ranges) {
    await both(`listTokenTransfers range ${rangeTag(blocks)}`, (page) => ds.listTokenTransfers({ blocks }, page), ttCursor);
  }
  for (const tokenAddress of keys.tokens) {
    for (const types of light ? ([undefined] as const) : ([undefined, ['ERC-20'], ['ERC-721', 'ERC-1155']] as const)) {
      await both(
        `listTokenTransfers token ${tokenAddress} types=${types?.join('+') ?? '*'}`,
        (page) => ds.listTokenTransfers({ tokenAddress, ...(types === undefined ? {} : { types }) }, page),
        ttCursor,
      );
    }
  }
  for (const address of sample(keys.addresses)) {
    for (const direction of directions) {
      await both(
        `listTokenTransfers address ${address} ${direction ?? '*'}`,
        (page) => ds.listTokenTransfers({ address, ...(direction === undefined ? {} : { direction }) }, page),
        ttCursor,
      );
    }
    for (const tokenAddress of keys.tokens.slice(0, 1)) {
      await both(
        `listTokenTransfers address ${address} token ${tokenAddress} range`,
        (page) => ds.listTokenTransfers({ address, tokenAddress, types: ['ERC-20', 'ERC-721', 'ERC-1155'], blocks: middle }, page),
        ttCursor,
      );
    }
  }
  for (const { tokenAddress, tokenId } of every(keys.transferIds)) {
    await both(`listTokenTransfers id ${tokenAddress}#${tokenId}`, (page) => ds.listTokenTransfers({ tokenAddress, tokenId }, page), ttCursor);
  }
  for (const { tokenId } of keys.transferIds.slice(0, 3)) {
    await both(`listTokenTransfers id-only ${tokenId}`, (page) => ds.listTokenTransfers({ tokenId }, page), ttCursor);
  }
  for (const transactionHash of every(keys.transactions)) {
    const rows = await both(`listTokenTransfers tx ${transactionHash}`, (page) => ds.listTokenTransfers({ transactionHash }, page), ttCursor);
    const first = rows[0];
    if (first !== undefined) {
      for (const order of light ? (['desc'] as const) : ORDERS) {
        add(
          `listTokenTransfers tx ${transactionHash} narrowed ${order}`,
          await ds.listTokenTransfers(
            {
              transactionHash,
              tokenAddress: first.tokenAddress,
              types: [first.tokenType],
              address: first.from,
              ...(first.tokenIds[0] === undefined ? {} : { tokenId: first.tokenIds[0] }),
            },
            { after: { blockNumber: first.blockNumber, logIndex: first.logIndex, inclusive: true }, limit: 50, order },
          ),
        );
      }
    }
  }

  // ---- logs, state changes -------------------------------------------------------------------
  const logCursor = (r: LogRecord) => ({ blockNumber: r.blockNumber, index: r.index });
  await both('listLogs all', (page) => ds.listLogs({}, page), logCursor);
  for (const blocks of ranges) await both(`listLogs range ${rangeTag(blocks)}`, (page) => ds.listLogs({ blocks }, page), logCursor);
  for (const address of sample(keys.logAddresses)) {
    await both(`listLogs address ${address}`, (page) => ds.listLogs({ address }, page), logCursor);
    await both(`listLogs address ${address} range`, (page) => ds.listLogs({ address, blocks: middle }, page), logCursor);
  }
  for (const transactionHash of every(keys.transactions)) {
    await both(`listLogs ${transactionHash}`, (page) => ds.listLogs({ transactionHash }, page), logCursor);
    add(`listStateChanges ${transactionHash}`, await ds.listStateChanges(transactionHash));
  }
  // (a sample: each is a point read of one transaction's frames)
  for (const transactionHash of sample(sample(keys.transactions))) add(`getTransactionTrace ${transactionHash}`, await ds.getTransactionTrace(transactionHash));

  // ---- created contracts ---------------------------------------------------------------------
  const byAddress = <T extends { readonly address: string }>(xs: readonly T[]): T[] => [...xs].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  add('getContracts all', byAddress(await ds.getContracts([...keys.addresses, ...keys.addresses.slice(0, 3)])));
  const contractCursor = (c: { readonly blockNumber: number; readonly address: Address }) => ({ blockNumber: c.blockNumber, address: c.address });
  await both('listContracts', (page) => ds.listContracts({}, page), contractCursor);
  for (const needle of options.light === true ? [] : ['ab1', 'zz']) {
    await both(`listContracts ${needle}`, (page) => ds.listContracts({ addressContains: needle }, page), contractCursor);
  }
  add('countContracts', await ds.countContracts({}));
  for (const since of [0, 1_700_000_000 + 600, 4_000_000_000]) add(`countContracts since ${since}`, await ds.countContracts({ createdSince: since }));

  // ---- coin balance history ------------------------------------------------------------------
  const coinCursor = (r: CoinBalanceRecord) => ({ blockNumber: r.blockNumber });
  for (const address of every(keys.addresses)) {
    await both(`listCoinBalances ${address}`, (page) => ds.listCoinBalances({ address }, page), coinCursor);
    await both(`listCoinBalances ${address} range`, (page) => ds.listCoinBalances({ address, blocks: middle }, page), coinCursor);
  }

  // ---- withdrawals ---------------------------------------------------------------------------
  const withdrawalCursor = (w: WithdrawalRecord) => ({ index: w.index });
  await both('listWithdrawals all', (page) => ds.listWithdrawals({}, page), withdrawalCursor);
  for (const blocks of ranges) await both(`listWithdrawals range ${rangeTag(blocks)}`, (page) => ds.listWithdrawals({ blocks }, page), withdrawalCursor);
  for (const n of every(keys.withdrawalHeights)) {
    await both(`listWithdrawals block ${n}`, (page) => ds.listWithdrawals({ blocks: { from: n, to: n } }, page), withdrawalCursor);
  }
  for (const address of keys.withdrawalRecipients) {
    await both(`listWithdrawals to ${address}`, (page) => ds.listWithdrawals({ address }, page), withdrawalCursor);
    await both(`listWithdrawals to ${address} range`, (page) => ds.listWithdrawals({ address, blocks: middle }, page), withdrawalCursor);
    await both(`listCoinBalances ${address} (withdrawals)`, (page) => ds.listCoinBalances({ address }, page), coinCursor);
  }
  add('getWithdrawalTotals', await ds.getWithdrawalTotals());

  // ---- balances, collections, instances ------------------------------------------------------
  const balanceCursor = (b: CurrentTokenBalance) => ({ value: b.value, tokenAddress: b.tokenAddress, tokenId: b.tokenId });
  const collectionCursor = (c: NftCollectionRecord) => ({ tokenType: c.tokenType, tokenAddress: c.tokenAddress });
  const instanceCursor = (i: HeldTokenInstance) => ({ tokenId: i.instance.tokenId });
  for (const holder of every(keys.holders)) {
    const balanceTypes = light ? ([undefined] as const) : ([undefined, [], ['ERC-20'], ['ERC-721', 'ERC-1155', 'ERC-404'], ['ERC-7984', 'ERC-20']] as const);
    for (const types of balanceTypes) {
      await both(
        `listTokenBalances ${holder} types=${types?.join('+') ?? '*'}`,
        (page) => ds.listTokenBalances({ holder, ...(types === undefined ? {} : { types }) }, page),
        balanceCursor,
      );
    }
    for (const types of light ? [[...NFT_TOKEN_TYPES]] : combos<NftTokenType>(NFT_TOKEN_TYPES)) {
      for (const holdings of light ? [9] : [9, 2]) {
        await both(`listNftCollections ${holder} types=${types.join('+')} holdings=${holdings}`, (page) => ds.listNftCollections({ holder, types, holdings }, page), collectionCursor);
      }
    }
  }
  const holderCursor = (b: CurrentTokenBalance) => ({ value: b.value, holder: b.holder, tokenId: b.tokenId });
  for (const tokenAddress of keys.tokens) {
    await both(`listTokenHolders ${tokenAddress}`, (page) => ds.listTokenHolders({ tokenAddress }, page), holderCursor);
    add(`countTokenTransfers ${tokenAddress}`, await ds.countTokenTransfers({ tokenAddress }));
  }
  for (const { tokenAddress, tokenId } of every(keys.instances)) {
    await both(`listTokenHolders ${tokenAddress}#${tokenId}`, (page) => ds.listTokenHolders({ tokenAddress, tokenId }, page), holderCursor);
    add(`countTokenTransfers ${tokenAddress}#${tokenId}`, await ds.countTokenTransfers({ tokenAddress, tokenId }));
  }
  // ---- address counters and top accounts ----------------------------------------------------
  add('getAddressCounters all', await ds.getAddressCounters([...keys.addresses, ...keys.addresses.slice(0, 3)]));
  add('getCoinBalances all', await ds.getCoinBalances([...keys.addresses, ...keys.addresses.slice(0, 3)]));
  add('getChainCounters', await ds.getChainCounters());
  const accountCursor = (r: AccountRecord) => ({ balance: r.balance, address: r.address, transactionsCount: r.transactionsCount });
  for (const sort of ['balance', 'transactionsCount'] as const) {
    for (const order of ['desc', 'asc'] as const) {
      add(`listAccounts ${sort} ${order}`, await walk((after: AccountCursor | null, l) => ds.listAccounts({ sort }, { after, limit: l, order }), accountCursor, limit));
    }
  }
  for (const tokenAddress of keys.tokens) {
    await both(`listTokenInstances ${tokenAddress}`, (page) => ds.listTokenInstances({ tokenAddress }, page), instanceCursor);
    for (const holder of every(keys.tokenHolders.get(tokenAddress) ?? [])) {
      await both(`listTokenInstances ${tokenAddress} holder ${holder}`, (page) => ds.listTokenInstances({ tokenAddress, holder }, page), instanceCursor);
    }
  }

  // ---- tokens by holders, named addresses (seeks only: a name prefix of listTokens may order up
  // to its cap of index entries, so it is proven in listTokens.test.ts and the conformance suite) ----
  const tokenCursor = (r: { holdersCount: bigint; name: string | null; address: Address }) => ({ holdersCount: r.holdersCount, name: r.name, address: r.address });
  const tokenTypeSets: (readonly TokenType[] | undefined)[] = light ? [undefined] : [undefined, ['ERC-20'], ['ERC-721', 'ERC-1155']];
  for (const types of tokenTypeSets) {
    await both(`listTokens types=${types?.join('+') ?? '*'}`, (page) => ds.listTokens(types === undefined ? {} : { types }, page), tokenCursor);
  }
  const nameCursor = (r: { name: string | null; hash: Address }) => ({ name: r.name ?? '', hash: r.hash });
  for (const namePrefix of light ? ['b'] : ['', 'BULK1', 'zzz']) {
    for (const isContract of light ? [undefined] : [undefined, true, false]) {
      const f = isContract === undefined ? { namePrefix } : { namePrefix, isContract };
      await both(`listAddresses ${namePrefix} contract=${String(isContract)}`, (page) => listAddresses(f, page), nameCursor);
    }
  }
  return out;
}
