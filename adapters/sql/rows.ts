/**
 * Records ⇄ table rows: the one place where values are encoded for storage and decoded
 * (and narrowed from `unknown`) on the way back.
 */
import type {
  Address,
  AddressRecord,
  AddressView,
  BlockRecord,
  ContractCodeRecord,
  Hash,
  Hex,
  InternalTransactionRecord,
  LogRecord,
  ProxyRecord,
  ProxyType,
  FacetCut,
  StateChangeRecord,
  TokenRecord,
  TokenTransferRecord,
  TokenType,
  TraceFrameRecord,
  TransactionKind,
  TransactionRecord,
  TransactionSignature,
} from '../../lib/domain/records.ts';
import { TOKEN_TYPES, TRANSACTION_KINDS } from '../../lib/domain/records.ts';
import type { CurrentTokenBalance, TokenHolding } from '../../lib/ports.ts';
import type { Dialect } from './dialect.ts';
import { toBig } from './dialect.ts';

export type Row = Readonly<Record<string, unknown>>;
export type WriteRow = Record<string, string | number | boolean | null>;

// ---- narrowing --------------------------------------------------------------------------------

function isRow(v: unknown): v is Row {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
export function asRows(v: unknown): Row[] {
  if (!Array.isArray(v)) throw new TypeError('expected rows from the database');
  return v.map((r: unknown) => {
    if (!isRow(r)) throw new TypeError('expected a row object from the database');
    return r;
  });
}
export function asRow(v: unknown): Row | null {
  if (v === undefined || v === null) return null;
  if (!isRow(v)) throw new TypeError('expected a row object from the database');
  return v;
}

export function str(r: Row, c: string): string {
  const v = r[c];
  if (typeof v !== 'string') throw new TypeError(`column ${c}: expected text, got ${typeof v}`);
  return v;
}
export function strOrNull(r: Row, c: string): string | null {
  return r[c] === null || r[c] === undefined ? null : str(r, c);
}
export function hex(r: Row, c: string): Hex {
  return str(r, c) as Hex;
}
export function hexOrNull(r: Row, c: string): Hex | null {
  return strOrNull(r, c) as Hex | null;
}
/** an address column: the lower-case form this store wrote */
export function address(r: Row, c: string): Address {
  return str(r, c) as Address;
}
export function addressOrNull(r: Row, c: string): Address | null {
  return strOrNull(r, c) as Address | null;
}
/** a 32-byte hash column */
export function hash(r: Row, c: string): Hash {
  return str(r, c) as Hash;
}
export function hashOrNull(r: Row, c: string): Hash | null {
  return strOrNull(r, c) as Hash | null;
}
export function num(r: Row, c: string): number {
  const v = r[c];
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint' || typeof v === 'string') {
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw new RangeError(`column ${c}: not a safe integer: ${v}`);
    return n;
  }
  throw new TypeError(`column ${c}: expected a number, got ${typeof v}`);
}
export function numOrNull(r: Row, c: string): number | null {
  return r[c] === null || r[c] === undefined ? null : num(r, c);
}
export function big(r: Row, c: string): bigint {
  return toBig(r[c]);
}
export function bigOrNull(r: Row, c: string): bigint | null {
  return r[c] === null || r[c] === undefined ? null : toBig(r[c]);
}
export function bool(r: Row, c: string): boolean {
  const v = r[c];
  if (typeof v === 'boolean') return v;
  if (v === 0 || v === 1) return v === 1;
  throw new TypeError(`column ${c}: expected a boolean, got ${String(v)}`);
}
export function boolOrNull(r: Row, c: string): boolean | null {
  return r[c] === null || r[c] === undefined ? null : bool(r, c);
}
function jsonStrings(r: Row, c: string): string[] {
  const v: unknown = JSON.parse(str(r, c));
  if (!Array.isArray(v) || !v.every((x): x is string => typeof x === 'string')) {
    throw new TypeError(`column ${c}: expected a JSON array of strings`);
  }
  return v;
}
export function tokenType(r: Row, c: string): TokenType {
  const v = str(r, c);
  const t = TOKEN_TYPES.find((x) => x === v);
  if (t === undefined) throw new TypeError(`column ${c}: unknown token type ${v}`);
  return t;
}

const bigOpt = (d: Dialect, v: bigint | null): string | null => (v === null ? null : d.big(v));

// ---- blocks -----------------------------------------------------------------------------------

export function blockRow(d: Dialect, b: BlockRecord): WriteRow {
  return {
    hash: b.hash,
    number: b.number,
    parent_hash: b.parentHash,
    timestamp: b.timestamp,
    miner: b.miner,
    size: b.size,
    gas_limit: d.big(b.gasLimit),
    gas_used: d.big(b.gasUsed),
    base_fee_per_gas: bigOpt(d, b.baseFeePerGas),
    difficulty: bigOpt(d, b.difficulty),
    total_difficulty: bigOpt(d, b.totalDifficulty),
    nonce: b.nonce,
    extra_data: b.extraData,
    state_root: b.stateRoot,
    consensus: b.consensus,
    uncles_hashes: JSON.stringify(b.unclesHashes),
    transactions_count: b.transactionsCount,
    internal_transactions_count: b.internalTransactionsCount,
    transaction_fees: d.big(b.transactionFees),
    burnt_fees: d.big(b.burntFees),
    priority_fee: d.big(b.priorityFee),
  };
}
export function toBlock(r: Row): BlockRecord {
  return {
    number: num(r, 'number'),
    hash: hash(r, 'hash'),
    parentHash: hash(r, 'parent_hash'),
    timestamp: num(r, 'timestamp'),
    miner: address(r, 'miner'),
    size: numOrNull(r, 'size'),
    gasLimit: big(r, 'gas_limit'),
    gasUsed: big(r, 'gas_used'),
    baseFeePerGas: bigOrNull(r, 'base_fee_per_gas'),
    difficulty: bigOrNull(r, 'difficulty'),
    totalDifficulty: bigOrNull(r, 'total_difficulty'),
    nonce: hex(r, 'nonce'),
    extraData: hex(r, 'extra_data'),
    stateRoot: hashOrNull(r, 'state_root'),
    consensus: bool(r, 'consensus'),
    unclesHashes: jsonStrings(r, 'uncles_hashes') as Hash[],
    transactionsCount: num(r, 'transactions_count'),
    internalTransactionsCount: num(r, 'internal_transactions_count'),
    transactionFees: big(r, 'transaction_fees'),
    burntFees: big(r, 'burnt_fees'),
    priorityFee: big(r, 'priority_fee'),
  };
}

// ---- transactions -----------------------------------------------------------------------------

export function kindCode(k: TransactionKind): number {
  return TRANSACTION_KINDS.indexOf(k);
}

/** Columns shared by `transactions` (plus `consensus`) and `pending_transactions`. */
export function transactionRow(d: Dialect, t: TransactionRecord): WriteRow {
  return {
    hash: t.hash,
    block_number: t.blockNumber,
    block_hash: t.blockHash,
    tx_index: t.index,
    timestamp: t.timestamp,
    base_fee_per_gas: bigOpt(d, t.baseFeePerGas),
    from_address: t.from,
    to_address: t.to,
    created_contract: t.createdContract,
    value: d.big(t.value),
    gas: d.big(t.gas),
    gas_price: bigOpt(d, t.gasPrice),
    max_fee_per_gas: bigOpt(d, t.maxFeePerGas),
    max_priority_fee_per_gas: bigOpt(d, t.maxPriorityFeePerGas),
    gas_used: bigOpt(d, t.gasUsed),
    status: t.status,
    error: t.error,
    revert_reason: t.revertReason,
    nonce: t.nonce,
    type: t.type,
    input: t.input,
    method_id: t.methodId,
    inserted_at: t.insertedAt,
    kinds: JSON.stringify(t.kinds),
    has_error_in_internal: t.hasErrorInInternalTransactions,
    sig_r: t.signature?.r ?? null,
    sig_s: t.signature?.s ?? null,
    sig_v: t.signature === undefined ? null : t.signature.v.toString(),
    sig_y_parity: t.signature?.yParity ?? null,
  };
}
function txStatus(r: Row): 'ok' | 'error' | null {
  const v = strOrNull(r, 'status');
  if (v === null || v === 'ok' || v === 'error') return v;
  throw new TypeError(`column status: unexpected ${v}`);
}
function kinds(r: Row): TransactionKind[] {
  return jsonStrings(r, 'kinds').map((k) => {
    const kind = TRANSACTION_KINDS.find((x) => x === k);
    if (kind === undefined) throw new TypeError(`column kinds: unknown kind ${k}`);
    return kind;
  });
}
export function toTransaction(r: Row): TransactionRecord {
  return {
    hash: hash(r, 'hash'),
    blockNumber: numOrNull(r, 'block_number'),
    blockHash: hashOrNull(r, 'block_hash'),
    index: numOrNull(r, 'tx_index'),
    timestamp: numOrNull(r, 'timestamp'),
    baseFeePerGas: bigOrNull(r, 'base_fee_per_gas'),
    from: address(r, 'from_address'),
    to: addressOrNull(r, 'to_address'),
    createdContract: addressOrNull(r, 'created_contract'),
    value: big(r, 'value'),
    gas: big(r, 'gas'),
    gasPrice: bigOrNull(r, 'gas_price'),
    maxFeePerGas: bigOrNull(r, 'max_fee_per_gas'),
    maxPriorityFeePerGas: bigOrNull(r, 'max_priority_fee_per_gas'),
    gasUsed: bigOrNull(r, 'gas_used'),
    status: txStatus(r),
    error: strOrNull(r, 'error'),
    revertReason: hexOrNull(r, 'revert_reason'),
    nonce: num(r, 'nonce'),
    type: numOrNull(r, 'type'),
    input: hex(r, 'input'),
    methodId: hexOrNull(r, 'method_id'),
    insertedAt: num(r, 'inserted_at'),
    kinds: kinds(r),
    hasErrorInInternalTransactions: boolOrNull(r, 'has_error_in_internal'),
    ...signatureOf(r),
  };
}

/** The signature columns (migration 012): present only when the indexer stored one. */
function signatureOf(r: Row): { signature?: TransactionSignature } {
  const sr = hexOrNull(r, 'sig_r');
  const ss = hexOrNull(r, 'sig_s');
  const sv = strOrNull(r, 'sig_v');
  if (sr === null || ss === null || sv === null) return {};
  return { signature: { r: sr, s: ss, v: BigInt(sv), yParity: numOrNull(r, 'sig_y_parity') } };
}

// ---- internal transactions ----------------------------------------------------------------------

export function internalRow(d: Dialect, t: InternalTransactionRecord, listed: boolean): WriteRow {
  return {
    transaction_hash: t.transactionHash,
    trace_index: t.index,
    block_number: t.blockNumber,
    block_hash: t.blockHash,
    transaction_index: t.transactionIndex,
    timestamp: t.timestamp,
    type: t.type,
    from_address: t.from,
    to_address: t.to,
    created_contract: t.createdContract,
    value: d.big(t.value),
    gas: bigOpt(d, t.gas),
    gas_used: bigOpt(d, t.gasUsed),
    error: t.error,
    listed,
  };
}
export function toInternal(r: Row): InternalTransactionRecord {
  return {
    transactionHash: hash(r, 'transaction_hash'),
    blockNumber: num(r, 'block_number'),
    blockHash: hash(r, 'block_hash'),
    transactionIndex: num(r, 'transaction_index'),
    index: num(r, 'trace_index'),
    timestamp: num(r, 'timestamp'),
    type: str(r, 'type'),
    from: address(r, 'from_address'),
    to: addressOrNull(r, 'to_address'),
    createdContract: addressOrNull(r, 'created_contract'),
    value: big(r, 'value'),
    gas: bigOrNull(r, 'gas'),
    gasUsed: bigOrNull(r, 'gas_used'),
    error: strOrNull(r, 'error'),
  };
}

// ---- logs -------------------------------------------------------------------------------------

export function logRow(l: LogRecord): WriteRow {
  return {
    block_hash: l.blockHash,
    log_index: l.index,
    transaction_hash: l.transactionHash,
    block_number: l.blockNumber,
    transaction_index: l.transactionIndex,
    timestamp: l.timestamp,
    address: l.address,
    topics: JSON.stringify(l.topics),
    data: l.data,
  };
}
export function toLog(r: Row): LogRecord {
  return {
    transactionHash: hash(r, 'transaction_hash'),
    blockHash: hash(r, 'block_hash'),
    blockNumber: num(r, 'block_number'),
    transactionIndex: num(r, 'transaction_index'),
    index: num(r, 'log_index'),
    timestamp: num(r, 'timestamp'),
    address: address(r, 'address'),
    topics: jsonStrings(r, 'topics') as Hex[],
    data: hex(r, 'data'),
  };
}

// ---- tokens -----------------------------------------------------------------------------------

export function tokenRow(d: Dialect, t: TokenRecord): WriteRow {
  return {
    address: t.address,
    type: t.type,
    name: t.name,
    symbol: t.symbol,
    decimals: bigOpt(d, t.decimals),
    total_supply: bigOpt(d, t.totalSupply),
    icon_url: t.iconUrl,
    exchange_rate: t.exchangeRate,
  };
}
/** A tokens row joined with token_holder_counts (holders_count may be null). */
export function toToken(r: Row): TokenRecord {
  return {
    address: address(r, 'address'),
    type: tokenType(r, 'type'),
    name: strOrNull(r, 'name'),
    symbol: strOrNull(r, 'symbol'),
    decimals: bigOrNull(r, 'decimals'),
    totalSupply: bigOrNull(r, 'total_supply'),
    holdersCount: bigOrNull(r, 'holders_count') ?? 0n,
    iconUrl: strOrNull(r, 'icon_url'),
    exchangeRate: strOrNull(r, 'exchange_rate'),
  };
}

// ---- token transfers --------------------------------------------------------------------------

export function transferRow(d: Dialect, t: TokenTransferRecord): WriteRow {
  return {
    block_hash: t.blockHash,
    log_index: t.logIndex,
    transaction_hash: t.transactionHash,
    block_number: t.blockNumber,
    transaction_index: t.transactionIndex,
    timestamp: t.timestamp,
    from_address: t.from,
    to_address: t.to,
    token_address: t.tokenAddress,
    token_type: t.tokenType,
    amount: bigOpt(d, t.amount),
    token_ids: JSON.stringify(t.tokenIds.map((x) => x.toString())),
    amounts: JSON.stringify(t.amounts.map((x) => x.toString())),
    method_id: t.methodId,
  };
}
export function toTransfer(r: Row): TokenTransferRecord {
  return {
    transactionHash: hash(r, 'transaction_hash'),
    blockHash: hash(r, 'block_hash'),
    blockNumber: num(r, 'block_number'),
    transactionIndex: num(r, 'transaction_index'),
    logIndex: num(r, 'log_index'),
    timestamp: num(r, 'timestamp'),
    from: address(r, 'from_address'),
    to: address(r, 'to_address'),
    tokenAddress: address(r, 'token_address'),
    tokenType: tokenType(r, 'token_type'),
    amount: bigOrNull(r, 'amount'),
    tokenIds: jsonStrings(r, 'token_ids').map((x) => BigInt(x)),
    amounts: jsonStrings(r, 'amounts').map((x) => BigInt(x)),
    methodId: hexOrNull(r, 'method_id'),
  };
}

// ---- addresses, state changes -------------------------------------------------------------------

export function toAddress(r: Row): AddressRecord {
  return {
    hash: address(r, 'hash'),
    isContract: bool(r, 'is_contract'),
    name: strOrNull(r, 'name'),
    creationTransactionHash: hashOrNull(r, 'creation_transaction_hash'),
    creatorAddress: addressOrNull(r, 'creator_address'),
  };
}

/** An address_views row (migration 024): the addresses row's columns (is_contract null without one), `token_type`, `proxied`. */
export function toAddressView(r: Row): AddressView {
  return {
    hash: address(r, 'hash'),
    record: r['is_contract'] === null || r['is_contract'] === undefined ? null : toAddress(r),
    tokenType: r['token_type'] === null || r['token_type'] === undefined ? null : tokenType(r, 'token_type'),
    proxied: bool(r, 'proxied'),
  };
}

export function stateChangeRow(d: Dialect, s: StateChangeRecord, blockNumber: number, blockHash: Hash): WriteRow {
  return {
    transaction_hash: s.transactionHash,
    ordinal: s.ordinal,
    block_number: blockNumber,
    block_hash: blockHash,
    address: s.address,
    type: s.type,
    token_address: s.tokenAddress,
    token_id: bigOpt(d, s.tokenId),
    balance_before: d.big(s.balanceBefore),
    balance_after: d.big(s.balanceAfter),
    is_miner: s.isMiner,
  };
}
export function toStateChange(r: Row): StateChangeRecord {
  const type = str(r, 'type');
  if (type !== 'coin' && type !== 'token') throw new TypeError(`column type: unexpected ${type}`);
  return {
    transactionHash: hash(r, 'transaction_hash'),
    address: address(r, 'address'),
    type,
    tokenAddress: addressOrNull(r, 'token_address'),
    tokenId: bigOrNull(r, 'token_id'),
    balanceBefore: big(r, 'balance_before'),
    balanceAfter: big(r, 'balance_after'),
    isMiner: bool(r, 'is_miner'),
    ordinal: num(r, 'ordinal'),
  };
}

/** A current_token_balances row (the id key decoded by the dialect). */
export function toCurrentBalance(r: Row, d: Pick<Dialect, 'fromIdKey'>): CurrentTokenBalance {
  return {
    holder: address(r, 'holder'),
    tokenAddress: address(r, 'token_address'),
    tokenType: tokenType(r, 'token_type'),
    tokenId: d.fromIdKey(r.token_id),
    value: big(r, 'value'),
  };
}

/**
 * A holding (listTokenHoldings) read as one array of these columns: the balance `b`'s, then its
 * token `t`'s (type null: no token row; its address is the balance's token address, the join's
 * key) and `h`'s holders count. The holder is the filter's (the seek's equality), not read back.
 */
export const HOLDING_COLUMNS: readonly string[] = [
  'b."token_address"', 'b."token_id"', 'b."token_type"', 'b."value"',
  't."type"', 't."name"', 't."symbol"', 't."decimals"', 't."total_supply"', 't."icon_url"', 't."exchange_rate"',
  'h."holders_count"',
];

export function toHolding(holder: Address, v: readonly unknown[], d: Pick<Dialect, 'fromIdKey'>): TokenHolding {
  // straight from the cells (no row object, no spread: ~1,000 of these per unpaged answer)
  const tokenAddress = cellAddress(v[0], 'token_address');
  return {
    holder,
    tokenAddress,
    tokenType: cellTokenType(v[2], 'token_type'),
    tokenId: d.fromIdKey(v[1]),
    value: toBig(v[3]),
    token:
      v[4] === null || v[4] === undefined
        ? null
        : {
            address: tokenAddress,
            type: cellTokenType(v[4], 'type'),
            name: cellStrOrNull(v[5], 'name'),
            symbol: cellStrOrNull(v[6], 'symbol'),
            decimals: v[7] === null || v[7] === undefined ? null : toBig(v[7]),
            totalSupply: v[8] === null || v[8] === undefined ? null : toBig(v[8]),
            holdersCount: v[11] === null || v[11] === undefined ? 0n : toBig(v[11]),
            iconUrl: cellStrOrNull(v[9], 'icon_url'),
            exchangeRate: cellStrOrNull(v[10], 'exchange_rate'),
          },
  };
}

function cellAddress(v: unknown, c: string): Address {
  if (typeof v !== 'string') throw new TypeError(`column ${c}: expected text, got ${typeof v}`);
  return v as Address;
}
function cellStrOrNull(v: unknown, c: string): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') throw new TypeError(`column ${c}: expected text, got ${typeof v}`);
  return v;
}
const TOKEN_TYPE_SET: ReadonlySet<string> = new Set(TOKEN_TYPES);
function cellTokenType(v: unknown, c: string): TokenType {
  if (typeof v !== 'string') throw new TypeError(`column ${c}: expected text, got ${typeof v}`);
  if (!TOKEN_TYPE_SET.has(v)) throw new TypeError(`column ${c}: unknown token type ${v}`);
  return v as TokenType;
}

// ---- contracts and trace frames ---------------------------------------------------------------

export function contractRow(c: ContractCodeRecord): WriteRow {
  return {
    block_hash: c.blockHash,
    block_number: c.blockNumber,
    address: c.address,
    transaction_hash: c.transactionHash,
    transaction_index: c.transactionIndex,
    timestamp: c.timestamp,
    creator: c.creator,
    deployed_bytecode: c.deployedBytecode,
    creation_bytecode: c.creationBytecode,
  };
}
export function proxyRow(blockHash: Hash, p: ProxyRecord): WriteRow {
  return {
    block_hash: blockHash,
    block_number: p.blockNumber,
    transaction_hash: p.transactionHash,
    transaction_index: p.transactionIndex,
    proxy: p.proxy,
    proxy_type: p.type,
    implementations: p.implementations.join(','),
    beacon: p.beacon,
    cuts: p.cuts === undefined ? null : JSON.stringify(p.cuts),
  };
}
export function toProxy(r: Row): ProxyRecord {
  const implementations = str(r, 'implementations');
  const cuts = strOrNull(r, 'cuts');
  return {
    proxy: address(r, 'proxy'),
    type: str(r, 'proxy_type') as ProxyType,
    implementations: implementations === '' ? [] : (implementations.split(',') as Address[]),
    beacon: addressOrNull(r, 'beacon'),
    ...(cuts === null ? {} : { cuts: JSON.parse(cuts) as FacetCut[] }),
    blockNumber: num(r, 'block_number'),
    transactionHash: hash(r, 'transaction_hash'),
    transactionIndex: num(r, 'transaction_index'),
  };
}
export function toContract(r: Row): ContractCodeRecord {
  return {
    address: address(r, 'address'),
    blockNumber: num(r, 'block_number'),
    blockHash: hash(r, 'block_hash'),
    transactionHash: hash(r, 'transaction_hash'),
    transactionIndex: num(r, 'transaction_index'),
    timestamp: num(r, 'timestamp'),
    creator: address(r, 'creator'),
    deployedBytecode: hex(r, 'deployed_bytecode'),
    creationBytecode: hexOrNull(r, 'creation_bytecode'),
  };
}

export function traceFrameRow(d: Dialect, f: TraceFrameRecord): WriteRow {
  return {
    block_hash: f.blockHash,
    block_number: f.blockNumber,
    transaction_hash: f.transactionHash,
    transaction_index: f.transactionIndex,
    frame_index: f.index,
    trace_address: JSON.stringify(f.traceAddress),
    type: f.type,
    from_address: f.from,
    to_address: f.to,
    value: bigOpt(d, f.value),
    gas: bigOpt(d, f.gas),
    gas_used: bigOpt(d, f.gasUsed),
    input: f.input,
    output: f.output,
    error: f.error,
    revert_reason: f.revertReason,
  };
}
export function toTraceFrame(r: Row): TraceFrameRecord {
  const traceAddress: unknown = JSON.parse(str(r, 'trace_address'));
  return {
    transactionHash: hash(r, 'transaction_hash'),
    blockNumber: num(r, 'block_number'),
    blockHash: hash(r, 'block_hash'),
    transactionIndex: num(r, 'transaction_index'),
    index: num(r, 'frame_index'),
    traceAddress: Array.isArray(traceAddress) ? traceAddress.map(Number) : [],
    type: str(r, 'type'),
    from: address(r, 'from_address'),
    to: addressOrNull(r, 'to_address'),
    value: bigOrNull(r, 'value'),
    gas: bigOrNull(r, 'gas'),
    gasUsed: bigOrNull(r, 'gas_used'),
    input: hex(r, 'input'),
    output: hexOrNull(r, 'output'),
    error: strOrNull(r, 'error'),
    revertReason: strOrNull(r, 'revert_reason'),
  };
}
