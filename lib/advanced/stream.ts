/**
 * The merged advanced-filter stream: transactions, internal transactions and token transfers
 * (one item per ERC-1155 batch entry) in Blockscout's order — block DESC, transaction index
 * DESC; within a transaction the transaction first, then its transfers (log index DESC, batch
 * index DESC), then its internal transactions (index DESC).
 *
 * A k-way merge over the keyset port lists: each source is read through one or more lists (one
 * per included address or token, so an include set is a union of index seeks), what the lists
 * cannot express is checked here, and every list stops after SCAN_BUDGET rows. A page only
 * shows items up to where every list has looked, and its cursor is then the position reached,
 * so a walk sees every item exactly once even when a page is short.
 */
import type {
  Address,
  InternalTransactionRecord,
  TokenTransferRecord,
  TransactionKind,
  TransactionRecord,
} from '../domain/records.ts';
import type {
  BlockRange,
  DataSource,
  Direction,
  InternalTransactionCursor,
  TokenTransferCursor,
  TokenTransferFilter,
  TransactionCursor,
  TransactionFilter,
} from '../ports.ts';
import type { AdvancedFilter, CoinType } from './filter.ts';
import { inAmountRange, partiesMatch, sideMatches } from './filter.ts';

/** Position of an item: [block, transaction index, rank (tx 2, transfer 1, internal 0), sub index, batch index]. */
export type ItemKey = readonly [number, number, number, number, number];

export type AdvancedRow =
  | { readonly kind: 'transaction'; readonly key: ItemKey; readonly tx: TransactionRecord }
  | { readonly kind: 'internal'; readonly key: ItemKey; readonly it: InternalTransactionRecord }
  | {
      readonly kind: 'transfer';
      readonly key: ItemKey;
      readonly tt: TokenTransferRecord;
      readonly tokenId: bigint | null;
      readonly amount: bigint | null;
      /** counted from the end of the batch: N … 1; a single transfer is 1 */
      readonly batchIndex: number;
    };

export interface AdvancedPage {
  readonly rows: readonly AdvancedRow[];
  /** where the next page starts (strictly after this position); null on the last page */
  readonly next: ItemKey | null;
}

/** Rows one list reads at most per request before the page stops at the position it reached. */
export const SCAN_BUDGET = 2000;

const MAX = Number.MAX_SAFE_INTEGER;

/** desc order: negative when a comes after b */
export function compareKeys(a: ItemKey, b: ItemKey): number {
  for (let i = 0; i < 5; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

export const keyId = (k: ItemKey): string => k.join(':');

/** Items of one transfer record, in listing order (batch entries unnested, none merged). */
export function transferRows(tt: TokenTransferRecord): AdvancedRow[] {
  const batch = tt.tokenIds.length > 1 || tt.amounts.length > 1;
  if (!batch) {
    const key: ItemKey = [tt.blockNumber, tt.transactionIndex, 1, tt.logIndex, 1];
    return [{ kind: 'transfer', key, tt, tokenId: tt.tokenIds[0] ?? null, amount: tt.amount ?? tt.amounts[0] ?? null, batchIndex: 1 }];
  }
  const n = Math.max(tt.tokenIds.length, tt.amounts.length);
  const rows: AdvancedRow[] = [];
  for (let i = 0; i < n; i++) {
    const key: ItemKey = [tt.blockNumber, tt.transactionIndex, 1, tt.logIndex, n - i];
    rows.push({ kind: 'transfer', key, tt, tokenId: tt.tokenIds[i] ?? null, amount: tt.amounts[i] ?? null, batchIndex: n - i });
  }
  return rows;
}

const txRow = (tx: TransactionRecord): AdvancedRow => ({ kind: 'transaction', key: [tx.blockNumber ?? -1, tx.index ?? -1, 2, 0, 0], tx });
const itRow = (it: InternalTransactionRecord): AdvancedRow => ({ kind: 'internal', key: [it.blockNumber, it.transactionIndex, 0, it.index, 0], it });

/** One keyset list of a source, with the checks its port filter cannot make. */
interface List<R, C> {
  readonly fetch: (after: C | null, limit: number) => Promise<readonly R[]>;
  readonly cursorOf: (r: R) => C;
  readonly start: C | null;
  readonly rows: (r: R) => AdvancedRow[];
  /** loads what the checks need for one chunk (one batch query at most), then checks a row */
  readonly keep: (chunk: readonly R[]) => Promise<(row: AdvancedRow) => boolean>;
}

interface Read {
  readonly matches: AdvancedRow[];
  /** the last position looked at when the list stopped on its budget; null otherwise */
  readonly capped: ItemKey | null;
}

async function readList<R, C>(list: List<R, C>, after: ItemKey | null, want: number, budget: number): Promise<Read> {
  const matches: AdvancedRow[] = [];
  let cursor = list.start;
  let scanned = 0;
  // chunks grow (×2 up to 1,000 rows) so a selective check costs a few queries, not one per page size
  let chunk = Math.max(want, 50);
  for (;;) {
    const batch = await list.fetch(cursor, chunk);
    const keep = batch.length === 0 ? () => false : await list.keep(batch);
    let lastKey: ItemKey | null = null;
    for (const r of batch) {
      for (const row of list.rows(r)) {
        lastKey = row.key;
        if (after !== null && compareKeys(row.key, after) >= 0) continue;
        if (keep(row)) matches.push(row);
      }
    }
    scanned += batch.length;
    const last = batch[batch.length - 1];
    if (matches.length >= want || batch.length < chunk || last === undefined) return { matches, capped: null };
    // rows at or before the cursor (a TT list re-reads the cursor's block) do not stop a list: it must get past the cursor
    if (scanned >= budget && lastKey !== null && (after === null || compareKeys(lastKey, after) < 0)) return { matches, capped: lastKey };
    cursor = list.cursorOf(last);
    chunk = Math.min(chunk * 2, Math.max(want, 1000));
  }
}

/** Most address seeks one source makes; longer include lists are checked on the rows of one list instead. */
export const MAX_ADDRESS_SEEKS = 20;

/** Seek lists for the address filter: one per included address of the side that leads; null: no address seek. */
function addressSeeks(f: AdvancedFilter): { address: Address; direction: Direction }[] | null {
  const seeks = leadingSeeks(f);
  return seeks !== null && seeks.length > MAX_ADDRESS_SEEKS ? null : seeks;
}

function leadingSeeks(f: AdvancedFilter): { address: Address; direction: Direction }[] | null {
  const fi = f.from !== undefined && 'include' in f.from ? f.from.include : null;
  const ti = f.to !== undefined && 'include' in f.to ? f.to.include : null;
  const from = (xs: readonly Address[]) => xs.map((address) => ({ address, direction: 'from' as const }));
  const to = (xs: readonly Address[]) => xs.map((address) => ({ address, direction: 'to' as const }));
  if (f.from !== undefined && f.to !== undefined) {
    if (f.relation === 'and') return fi !== null ? from(fi) : ti !== null ? to(ti) : null;
    return fi !== null && ti !== null ? [...from(fi), ...to(ti)] : null;
  }
  if (fi !== null) return from(fi);
  if (ti !== null) return to(ti);
  return null;
}

const KIND_OF: Record<CoinType, TransactionKind> = {
  COIN_TRANSFER: 'coin_transfer',
  CONTRACT_INTERACTION: 'contract_call',
  CONTRACT_CREATION: 'contract_creation',
};

const inAge = (f: AdvancedFilter, ts: number): boolean => (f.age.from === undefined || ts >= f.age.from) && (f.age.to === undefined || ts <= f.age.to);

/** The coin-side type rule (value > 0 / `to` has code / `to` null), OR-combined. */
function coinTypeMatches(types: readonly CoinType[], value: bigint, to: Address | null, toIsContract: boolean): boolean {
  if (types.length === 0) return true;
  return (
    (types.includes('COIN_TRANSFER') && value > 0n) ||
    (types.includes('CONTRACT_INTERACTION') && to !== null && toIsContract) ||
    (types.includes('CONTRACT_CREATION') && to === null)
  );
}

function transactionLists(ds: DataSource, f: AdvancedFilter, blocks: BlockRange | undefined, after: ItemKey | null): List<TransactionRecord, TransactionCursor>[] {
  const seeks = addressSeeks(f) ?? [null];
  const base: TransactionFilter = {
    status: 'validated',
    ...(blocks === undefined ? {} : { blocks }),
    ...(f.methods.length > 0 ? { methodIds: f.methods } : {}),
    ...(f.coinTypes.length > 0 ? { kinds: f.coinTypes.map((c) => KIND_OF[c]) } : {}),
  };
  return seeks.map((seek) => ({
    fetch: (c, limit) => ds.listTransactions(seek === null ? base : { ...base, ...seek }, { after: c, limit, order: 'desc' }),
    cursorOf: (tx) => ({ blockNumber: tx.blockNumber ?? -1, index: tx.index ?? -1 }),
    start: after === null ? null : { blockNumber: after[0], index: after[1] },
    rows: (tx) => [txRow(tx)],
    keep: () =>
      Promise.resolve((row) => {
        if (row.kind !== 'transaction') return false;
        const tx = row.tx;
        return (
          tx.blockNumber !== null &&
          tx.index !== null &&
          inAge(f, tx.timestamp ?? 0) &&
          partiesMatch(f, tx.from, tx.to) &&
          (f.methods.length === 0 || (tx.methodId !== null && f.methods.includes(tx.methodId))) &&
          coinTypeMatches(f.coinTypes, tx.value, tx.to, tx.kinds.includes('contract_call')) &&
          inAmountRange(f.amount, tx.value, 18)
        );
      }),
  }));
}

function internalLists(
  ds: DataSource,
  f: AdvancedFilter,
  blocks: BlockRange | undefined,
  after: ItemKey | null,
): List<InternalTransactionRecord, InternalTransactionCursor>[] {
  // method ids match a trace's own input, which the store does not keep: no trace matches them
  if (f.methods.length > 0) return [];
  const seeks = addressSeeks(f) ?? [null];
  const needsCode = f.coinTypes.includes('CONTRACT_INTERACTION');
  return seeks.map((seek) => ({
    fetch: (c, limit) =>
      ds.listInternalTransactions({ ...(blocks === undefined ? {} : { blocks }), ...(seek ?? {}) }, { after: c, limit, order: 'desc' }),
    cursorOf: (it) => ({ blockNumber: it.blockNumber, transactionIndex: it.transactionIndex, index: it.index }),
    start: after === null ? null : { blockNumber: after[0], transactionIndex: after[1], index: after[2] === 0 ? after[3] : MAX },
    rows: (it) => [itRow(it)],
    keep: async (chunk) => {
      const targets = needsCode ? [...new Set(chunk.flatMap((it) => (it.to === null ? [] : [it.to])))] : [];
      const contracts = new Set(targets.length > 0 ? (await ds.getAddresses(targets)).filter((a) => a.isContract).map((a) => a.hash) : []);
      return (row) => {
        if (row.kind !== 'internal') return false;
        const it = row.it;
        return (
          inAge(f, it.timestamp) &&
          partiesMatch(f, it.from, it.to) &&
          coinTypeMatches(f.coinTypes, it.value, it.to, it.to !== null && contracts.has(it.to)) &&
          inAmountRange(f.amount, it.value, 18)
        );
      };
    },
  }));
}

function transferLists(
  ds: DataSource,
  f: AdvancedFilter,
  blocks: BlockRange | undefined,
  after: ItemKey | null,
): List<TokenTransferRecord, TokenTransferCursor>[] {
  const addressSeekList = addressSeeks(f);
  const tokenSeeks = f.tokens !== undefined && 'include' in f.tokens ? f.tokens.include.map((tokenAddress) => ({ tokenAddress })) : null;
  const seeks: (Partial<TokenTransferFilter> | null)[] = addressSeekList ?? tokenSeeks ?? [null];
  const base: TokenTransferFilter = {
    ...(blocks === undefined ? {} : { blocks }),
    ...(f.tokenTypes.length > 0 ? { types: f.tokenTypes } : {}),
    ...(f.methods.length > 0 ? { methodIds: f.methods } : {}),
  };
  const needsDecimals = f.amount.kind === 'empty' || f.amount.from !== undefined || f.amount.to !== undefined;
  const start: TokenTransferCursor | null =
    after === null ? null : after[2] === 1 ? { blockNumber: after[0], logIndex: after[3], inclusive: true } : { blockNumber: after[0], logIndex: MAX };
  return seeks.map((seek) => ({
    fetch: (c, limit) => ds.listTokenTransfers({ ...base, ...(seek ?? {}) }, { after: c, limit, order: 'desc' }),
    cursorOf: (tt) => ({ blockNumber: tt.blockNumber, logIndex: tt.logIndex }),
    start,
    rows: transferRows,
    keep: async (chunk) => {
      const decimals = new Map<Address, number>();
      if (needsDecimals) {
        for (const t of await ds.getTokens([...new Set(chunk.map((tt) => tt.tokenAddress))])) decimals.set(t.address, Number(t.decimals ?? 0n));
      }
      return (row) => {
        if (row.kind !== 'transfer') return false;
        const tt = row.tt;
        return (
          inAge(f, tt.timestamp) &&
          (f.tokenTypes.length === 0 || f.tokenTypes.includes(tt.tokenType)) &&
          (f.tokens === undefined || sideMatches(f.tokens, tt.tokenAddress)) &&
          (f.methods.length === 0 || (tt.methodId !== null && f.methods.includes(tt.methodId))) &&
          partiesMatch(f, tt.from, tt.to) &&
          inAmountRange(f.amount, row.amount ?? 1n, decimals.get(tt.tokenAddress) ?? 0)
        );
      };
    },
  }));
}

/**
 * The consensus blocks holding the age window: block timestamps never decrease along the
 * chain, so a search over getBlock finds the bounds in a few point lookups — interpolation
 * steps (block times are near regular) alternating with halving steps (so never more than about
 * twice a binary search), the probes shared by both bounds. A bound is left open when a probe
 * finds no block (a store with gaps); the timestamp check stays exact.
 */
export async function blocksOfAge(ds: DataSource, age: AdvancedFilter['age']): Promise<BlockRange | undefined> {
  if (age.from === undefined && age.to === undefined) return undefined;
  const highest = await ds.getHighestBlockNumber();
  if (highest === null) return undefined;
  const probes = new Map<number, number | null>();
  const timeOf = async (n: number): Promise<number | null> => {
    const known = probes.get(n);
    if (known !== undefined) return known;
    const ts = (await ds.getBlock({ number: n }))?.timestamp ?? null;
    probes.set(n, ts);
    return ts;
  };
  /** the first block number whose timestamp is ≥ target (> target when strict), highest + 1 if none; null on a gap */
  const search = async (target: number, strict: boolean): Promise<number | null> => {
    const ok = (ts: number) => (strict ? ts > target : ts >= target);
    // the answer is in [lo, hi]: blocks below lo fail `ok`, blocks from hi on pass it
    let lo = 0;
    let hi = highest + 1;
    let step = 0;
    while (lo < hi) {
      let mid = Math.floor((lo + hi) / 2);
      if (step++ % 2 === 0) {
        // interpolate between the nearest known times outside [lo, hi) (lo - 1 fails, hi passes), else probe the ends
        const below = lo > 0 ? probes.get(lo - 1) : undefined;
        const above = probes.get(hi);
        if (typeof below === 'number' && typeof above === 'number' && above > below) {
          mid = lo - 1 + Math.floor(((target - below) / (above - below)) * (hi - lo + 1));
        } else {
          const a = await timeOf(lo);
          const b = await timeOf(hi - 1);
          if (a === null || b === null) return null;
          if (ok(a)) return lo;
          if (!ok(b)) return hi;
          mid = b === a ? lo : lo + Math.floor(((target - a) / (b - a)) * (hi - 1 - lo));
        }
        mid = Math.min(hi - 1, Math.max(lo, mid));
      }
      const ts = await timeOf(mid);
      if (ts === null) return null;
      if (ok(ts)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const range: { from?: number; to?: number } = {};
  if (age.from !== undefined) {
    const first = await search(age.from, false);
    if (first !== null) range.from = first;
  }
  if (age.to !== undefined) {
    const firstAfter = await search(age.to, true);
    if (firstAfter !== null) range.to = firstAfter - 1;
  }
  return range;
}

/**
 * One page of the merged stream: up to `size` items strictly after `after`, and where the next
 * page starts.
 */
export async function listAdvancedFilter(
  ds: DataSource,
  f: AdvancedFilter,
  after: ItemKey | null,
  size: number,
  budget: number = SCAN_BUDGET,
): Promise<AdvancedPage> {
  if (f.amount.kind === 'empty') return { rows: [], next: null };
  const blocks = await blocksOfAge(ds, f.age);
  if (blocks !== undefined && blocks.from !== undefined && blocks.to !== undefined && blocks.from > blocks.to) return { rows: [], next: null };
  const want = size + 1;
  const lists: Promise<Read>[] = [];
  const tx = f.sources.transactions ? transactionLists(ds, f, blocks, after) : [];
  const it = f.sources.internal ? internalLists(ds, f, blocks, after) : [];
  const tt = f.sources.transfers ? transferLists(ds, f, blocks, after) : [];
  // the budget is shared by a source's lists (at least 200 rows each), so many seeks do not multiply it
  const share = (n: number) => Math.min(budget, Math.max(200, Math.floor(budget / Math.max(1, n))));
  for (const l of tx) lists.push(readList(l, after, want, share(tx.length)));
  for (const l of it) lists.push(readList(l, after, want, share(it.length)));
  for (const l of tt) lists.push(readList(l, after, want, share(tt.length)));
  const done = await Promise.all(lists);
  const unique = new Map<string, AdvancedRow>();
  for (const r of done) for (const row of r.matches) if (!unique.has(keyId(row.key))) unique.set(keyId(row.key), row);
  const sorted = [...unique.values()].sort((a, b) => compareKeys(b.key, a.key));
  // the least advanced of the lists that stopped on their budget bounds what is known
  let cut: ItemKey | null = null;
  for (const r of done) if (r.capped !== null && (cut === null || compareKeys(r.capped, cut) > 0)) cut = r.capped;
  const safe = cut === null ? sorted : sorted.filter((row) => compareKeys(row.key, cut) >= 0);
  const rows = safe.slice(0, size);
  const last = rows[rows.length - 1];
  const next = safe.length > size && last !== undefined ? last.key : cut;
  return { rows, next };
}
