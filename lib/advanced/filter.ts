/**
 * The advanced filter: what `/advanced-filters` (and its CSV export) select, parsed from the
 * request's free-form strings the way Blockscout reads them — unknown or malformed entries are
 * dropped, never refused (only the paging keys are validated).
 */
import type { Address, Hex, TokenType } from '../domain/records.ts';
import { TOKEN_TYPES } from '../domain/records.ts';
import { hex } from '../domain/hex.ts';

/** The coin-side types of `transaction_types` (they act on transactions and internal transactions). */
export const COIN_TYPES = ['COIN_TRANSFER', 'CONTRACT_INTERACTION', 'CONTRACT_CREATION'] as const;
export type CoinType = (typeof COIN_TYPES)[number];

/** The fixed method list of `/advanced-filters/methods` (Blockscout's order). */
export const POPULAR_METHODS: readonly { readonly method_id: Hex; readonly name: string }[] = [
  { method_id: hex('0xa9059cbb'), name: 'transfer' },
  { method_id: hex('0xa0712d68'), name: 'mint' },
  { method_id: hex('0x095ea7b3'), name: 'approve' },
  { method_id: hex('0x40993b26'), name: 'buy' },
  { method_id: hex('0x3593564c'), name: 'execute' },
  { method_id: hex('0x3ccfd60b'), name: 'withdraw' },
  { method_id: hex('0xd0e30db0'), name: 'deposit' },
  { method_id: hex('0x0a19b14a'), name: 'trade' },
  { method_id: hex('0x4420e486'), name: 'register' },
  { method_id: hex('0x5f575529'), name: 'swap' },
  { method_id: hex('0xd9627aa4'), name: 'sellToUniswap' },
  { method_id: hex('0xe9e05c42'), name: 'depositTransaction' },
  { method_id: hex('0x23b872dd'), name: 'transferFrom' },
  { method_id: hex('0xa22cb465'), name: 'setApprovalForAll' },
  { method_id: hex('0x2e7ba6ef'), name: 'claim' },
  { method_id: hex('0x0502b1c5'), name: 'unoswap' },
  { method_id: hex('0xb2267a7b'), name: 'sendMessage' },
  { method_id: hex('0x9871efa4'), name: 'unxswapByOrderId' },
  { method_id: hex('0xbf6eac2f'), name: 'stake' },
  { method_id: hex('0x3ce33bff'), name: 'bridge' },
  { method_id: hex('0xeb672419'), name: 'requestL2Transaction' },
  { method_id: hex('0xe449022e'), name: 'uniswapV3Swap' },
  { method_id: hex('0x0162e2d0'), name: 'swapETHForExactTokens' },
];

export const METHODS_LIMIT = 20;
export const TOKENS_LIMIT = 20;

/** One side (sender or receiver) of the address filter: a set to match, or a set to avoid. */
export type AddressSide = { readonly include: readonly Address[] } | { readonly exclude: readonly Address[] };

/** A decimal as an exact fraction: `num / 10^scale`. */
export interface Decimal {
  readonly num: bigint;
  readonly scale: number;
}

/** Inclusive bounds in whole units (coin: / 10^18; tokens: / 10^decimals); `empty`: nothing can match. */
export type AmountRange = { readonly kind: 'empty' } | { readonly kind: 'range'; readonly from?: Decimal; readonly to?: Decimal };

export interface AdvancedFilter {
  /** which of the three sources are read */
  readonly sources: { readonly transactions: boolean; readonly internal: boolean; readonly transfers: boolean };
  /** coin-side types, OR-combined; empty: any */
  readonly coinTypes: readonly CoinType[];
  /** token types of transfers; empty: any */
  readonly tokenTypes: readonly TokenType[];
  /** 4-byte selectors, OR-combined; empty: any */
  readonly methods: readonly Hex[];
  /** block timestamps (unix seconds, inclusive) */
  readonly age: { readonly from?: number; readonly to?: number };
  readonly from?: AddressSide;
  readonly to?: AddressSide;
  /** with both sides set: 'and' needs both, 'or' either */
  readonly relation: 'and' | 'or';
  readonly amount: AmountRange;
  /** token contracts of transfers (`native` removed) */
  readonly tokens?: AddressSide;
  /** the token addresses named in the request (include then exclude, `native` removed, unique, ≤ 20) */
  readonly namedTokens: readonly Address[];
}

/** The raw request strings the filter reads (each optional). */
export interface AdvancedFilterQuery {
  readonly transaction_types?: string;
  readonly methods?: string;
  readonly methods_names?: string;
  readonly age_from?: string;
  readonly age_to?: string;
  readonly from_address_hashes_to_include?: string;
  readonly from_address_hashes_to_exclude?: string;
  readonly to_address_hashes_to_include?: string;
  readonly to_address_hashes_to_exclude?: string;
  readonly address_relation?: string;
  readonly amount_from?: string;
  readonly amount_to?: string;
  readonly token_contract_address_hashes_to_include?: string;
  readonly token_contract_address_hashes_to_exclude?: string;
}

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const SELECTOR_RE = /^0x[0-9a-f]{8}$/;

const uniq = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

function addresses(s: string | undefined): Address[] {
  if (s === undefined) return [];
  return uniq(s.split(',').filter((x) => ADDRESS_RE.test(x)).map((x) => x.toLowerCase() as Address));
}

/** Token lists: addresses and the literal `native` (case-insensitive), each list capped. */
function tokenList(s: string | undefined): { readonly native: boolean; readonly list: Address[] } {
  if (s === undefined) return { native: false, list: [] };
  const entries = s.split(',').flatMap((x) => (x.toLowerCase() === 'native' ? ['native'] : ADDRESS_RE.test(x) ? [x.toLowerCase()] : []));
  const capped = entries.slice(0, TOKENS_LIMIT);
  return { native: capped.includes('native'), list: uniq(capped.filter((x) => x !== 'native')) as Address[] };
}

/** An include list wins over its exclude list (include − exclude); else the exclude list; else none. */
function side(include: readonly Address[], exclude: readonly Address[]): AddressSide | undefined {
  if (include.length > 0) return { include: include.filter((a) => !exclude.includes(a)) };
  if (exclude.length > 0) return { exclude };
  return undefined;
}

/** Full ISO-8601 date-time with an offset (a bare date, or no offset, is ignored) → unix seconds. */
export function parseAge(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2}(?:\.\d+)?)([Zz]|[+-]\d{2}:?\d{2})$/.exec(s);
  if (m === null) return undefined;
  const offset = m[3] === 'z' || m[3] === 'Z' ? 'Z' : (m[3] as string).replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(`${m[1]}T${m[2]}${offset}`);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

/** A decimal string (sign, digits, optional fraction and exponent) → exact fraction; else undefined. */
export function parseDecimal(s: string | undefined): Decimal | undefined {
  if (s === undefined) return undefined;
  const m = /^([+-]?)(\d+)?(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (m === null || (m[2] === undefined && (m[3] === undefined || m[3] === ''))) return undefined;
  const frac = m[3] ?? '';
  let num = BigInt(`${m[2] ?? '0'}${frac}`);
  let scale = frac.length - Number(m[4] ?? '0');
  if (Math.abs(scale) > 200) return undefined;
  if (scale < 0) {
    num *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { num: m[1] === '-' ? -num : num, scale };
}

const positive = (d: Decimal): boolean => d.num > 0n;
/** a < b */
export const lessThan = (a: Decimal, b: Decimal): boolean => {
  const s = Math.max(a.scale, b.scale);
  return a.num * 10n ** BigInt(s - a.scale) < b.num * 10n ** BigInt(s - b.scale);
};

/** Blockscout's amount rules: both given needs to > 0 and from < to; only `to` needs to > 0; `from` ≤ 0 is ignored. */
function amountRange(from: Decimal | undefined, to: Decimal | undefined): AmountRange {
  if (from !== undefined && to !== undefined) return positive(to) && lessThan(from, to) ? { kind: 'range', from, to } : { kind: 'empty' };
  if (to !== undefined) return positive(to) ? { kind: 'range', to } : { kind: 'empty' };
  if (from !== undefined && positive(from)) return { kind: 'range', from };
  return { kind: 'range' };
}

/** `value / 10^decimals` lies in the range (inclusive). */
export function inAmountRange(range: AmountRange, value: bigint, decimals: number): boolean {
  if (range.kind === 'empty') return false;
  const cmp = (d: Decimal): number => {
    // value / 10^decimals  vs  d.num / 10^d.scale
    const s = Math.max(decimals, d.scale);
    const l = value * 10n ** BigInt(s - decimals);
    const r = d.num * 10n ** BigInt(s - d.scale);
    return l < r ? -1 : l > r ? 1 : 0;
  };
  if (range.from !== undefined && cmp(range.from) < 0) return false;
  if (range.to !== undefined && cmp(range.to) > 0) return false;
  return true;
}

/** The request's filter strings → the filter. Never fails: what cannot be read is dropped. */
export function parseAdvancedFilter(q: AdvancedFilterQuery): AdvancedFilter {
  const types = q.transaction_types === undefined ? [] : q.transaction_types.toUpperCase().split(',');
  const coinTypes = COIN_TYPES.filter((c) => types.includes(c));
  const tokenTypes = TOKEN_TYPES.filter((c) => types.includes(c));
  const anyType = coinTypes.length === 0 && tokenTypes.length === 0;

  const byName = new Map(POPULAR_METHODS.map((m) => [m.name.toLowerCase(), m.method_id]));
  const selectors = q.methods === undefined ? [] : q.methods.toLowerCase().split(',').filter((m) => SELECTOR_RE.test(m));
  const named =
    q.methods_names === undefined
      ? []
      : q.methods_names
          .split(',')
          .map((n) => byName.get(n.trim().toLowerCase()))
          .filter((m): m is Hex => m !== undefined);
  const methods = uniq([...(selectors as Hex[]), ...named]).slice(0, METHODS_LIMIT);

  const include = tokenList(q.token_contract_address_hashes_to_include);
  const exclude = tokenList(q.token_contract_address_hashes_to_exclude);
  const includesTokens = include.list.length > 0;
  const coinSide = (anyType || coinTypes.length > 0) && (!includesTokens || include.native) && !exclude.native;
  const tokenSide = (anyType || tokenTypes.length > 0) && (!include.native || includesTokens);

  const relation = q.address_relation?.toLowerCase() === 'and' ? 'and' : 'or';
  const from = side(addresses(q.from_address_hashes_to_include), addresses(q.from_address_hashes_to_exclude));
  const to = side(addresses(q.to_address_hashes_to_include), addresses(q.to_address_hashes_to_exclude));
  // an include list that its exclude list empties filters nothing (Blockscout drops the empty filter)
  const tokenSide0 = side(include.list, exclude.list);
  const tokens = tokenSide0 !== undefined && 'include' in tokenSide0 && tokenSide0.include.length === 0 ? undefined : tokenSide0;
  const ageFrom = parseAge(q.age_from);
  const ageTo = parseAge(q.age_to);
  return {
    sources: { transactions: coinSide, internal: coinSide, transfers: tokenSide },
    // all three coin types select every transaction
    coinTypes: coinTypes.length === COIN_TYPES.length ? [] : coinTypes,
    tokenTypes,
    methods,
    age: { ...(ageFrom === undefined ? {} : { from: ageFrom }), ...(ageTo === undefined ? {} : { to: ageTo }) },
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    relation,
    amount: amountRange(parseDecimal(q.amount_from), parseDecimal(q.amount_to)),
    ...(tokens === undefined ? {} : { tokens }),
    namedTokens: uniq([...include.list, ...exclude.list]).slice(0, TOKENS_LIMIT),
  };
}

/** Does an address on one side satisfy that side (a null address satisfies no side, as SQL's NULL)? */
export function sideMatches(s: AddressSide, a: Address | null): boolean {
  if (a === null) return false;
  return 'include' in s ? s.include.includes(a) : !s.exclude.includes(a);
}

/** The from/to address filter with its relation. */
export function partiesMatch(f: AdvancedFilter, from: Address, to: Address | null): boolean {
  if (f.from !== undefined && f.to !== undefined) {
    const a = sideMatches(f.from, from);
    const b = sideMatches(f.to, to);
    return f.relation === 'and' ? a && b : a || b;
  }
  if (f.from !== undefined) return sideMatches(f.from, from);
  if (f.to !== undefined) return sideMatches(f.to, to);
  return true;
}
