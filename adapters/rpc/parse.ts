/** JSON-RPC results → the ChainSource's typed values, checked on the way. */
import type { Address, Hash, Hex, TransactionSignature } from '../../lib/domain/records.ts';
import type {
  AccountState,
  CallFrame,
  PrestateDiff,
  SourceBlock,
  SourceLog,
  SourcePendingTransaction,
  SourceReceipt,
  SourceTransaction,
  SourceWithdrawal,
  TransactionTrace,
} from '../../lib/chain-source.ts';

export class RpcShapeError extends Error {
  override readonly name = 'RpcShapeError';
}

type Obj = Record<string, unknown>;

export function obj(v: unknown, what: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new RpcShapeError(`${what}: expected an object`);
  return v as Obj;
}
export function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new RpcShapeError(`${what}: expected an array`);
  return v;
}
export function hex(v: unknown, what: string): Hex {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]*$/.test(v)) throw new RpcShapeError(`${what}: expected hex, got ${String(v)}`);
  return v.toLowerCase() as Hex;
}
const optHex = (v: unknown, what: string): Hex | null => (v === undefined || v === null ? null : hex(v, what));
/** hex the node gives where the field is an address (its length is the node's word) */
export const address = (v: unknown, what: string): Address => hex(v, what) as Address;
const optAddress = (v: unknown, what: string): Address | null => optHex(v, what) as Address | null;
/** hex the node gives where the field is a 32-byte hash */
export const hash = (v: unknown, what: string): Hash => hex(v, what) as Hash;
const optHash = (v: unknown, what: string): Hash | null => optHex(v, what) as Hash | null;
export function big(v: unknown, what: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  const h = hex(v, what);
  return h.length === 2 ? 0n : BigInt(h);
}
const optBig = (v: unknown, what: string): bigint | null => (v === undefined || v === null ? null : big(v, what));
export function num(v: unknown, what: string): number {
  const n = big(v, what);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new RpcShapeError(`${what}: ${n} is too large`);
  return Number(n);
}
const optNum = (v: unknown, what: string): number | null => (v === undefined || v === null ? null : num(v, what));

export function parseTransaction(v: unknown): SourceTransaction {
  const t = obj(v, 'transaction');
  const w = `transaction ${hex(t.hash, 'transaction.hash')}`;
  return {
    ...parsePendingTransaction(t),
    blockNumber: num(t.blockNumber, `${w}.blockNumber`),
    blockHash: hash(t.blockHash, `${w}.blockHash`),
    index: num(t.transactionIndex, `${w}.transactionIndex`),
  };
}

/** A transaction of the pool (txpool_content, eth_getTransactionByHash, the pending block): its place in a block, if any, is not read. */
export function parsePendingTransaction(v: unknown): SourcePendingTransaction {
  const t = obj(v, 'transaction');
  const transactionHash = hash(t.hash, 'transaction.hash');
  const w = `transaction ${transactionHash}`;
  return {
    hash: transactionHash,
    from: address(t.from, `${w}.from`),
    to: optAddress(t.to, `${w}.to`),
    value: big(t.value, `${w}.value`),
    gas: big(t.gas, `${w}.gas`),
    gasPrice: optBig(t.gasPrice, `${w}.gasPrice`),
    maxFeePerGas: optBig(t.maxFeePerGas, `${w}.maxFeePerGas`),
    maxPriorityFeePerGas: optBig(t.maxPriorityFeePerGas, `${w}.maxPriorityFeePerGas`),
    nonce: num(t.nonce, `${w}.nonce`),
    type: optNum(t.type, `${w}.type`),
    input: hex(t.input ?? t.data ?? '0x', `${w}.input`),
    ...signatureOf(t, w),
  };
}

/** r, s and v as the node reports them (yParity where it does); nothing when any of r/s/v is missing. */
function signatureOf(t: Record<string, unknown>, w: string): { signature?: TransactionSignature } {
  if (t.r === undefined || t.r === null || t.s === undefined || t.s === null || t.v === undefined || t.v === null) return {};
  return { signature: { r: hex(t.r, `${w}.r`), s: hex(t.s, `${w}.s`), v: big(t.v, `${w}.v`), yParity: optNum(t.yParity, `${w}.yParity`) } };
}

export function parseBlock(v: unknown): SourceBlock {
  const b = obj(v, 'block');
  const number = num(b.number, 'block.number');
  const w = `block ${number}`;
  return {
    number,
    hash: hash(b.hash, `${w}.hash`),
    parentHash: hash(b.parentHash, `${w}.parentHash`),
    timestamp: num(b.timestamp, `${w}.timestamp`),
    miner: address(b.miner ?? b.author ?? '0x0000000000000000000000000000000000000000', `${w}.miner`),
    size: optNum(b.size, `${w}.size`),
    gasLimit: big(b.gasLimit, `${w}.gasLimit`),
    gasUsed: big(b.gasUsed, `${w}.gasUsed`),
    baseFeePerGas: optBig(b.baseFeePerGas, `${w}.baseFeePerGas`),
    difficulty: optBig(b.difficulty, `${w}.difficulty`),
    totalDifficulty: optBig(b.totalDifficulty, `${w}.totalDifficulty`),
    nonce: hex(b.nonce ?? '0x0000000000000000', `${w}.nonce`),
    extraData: hex(b.extraData ?? '0x', `${w}.extraData`),
    stateRoot: optHash(b.stateRoot, `${w}.stateRoot`),
    uncles: arr(b.uncles ?? [], `${w}.uncles`).map((u, i) => hash(u, `${w}.uncles[${i}]`)),
    transactions: arr(b.transactions, `${w}.transactions`).map(parseTransaction),
    ...(b.withdrawals === undefined || b.withdrawals === null
      ? {}
      : { withdrawals: arr(b.withdrawals, `${w}.withdrawals`).map((x, i) => parseWithdrawal(x, `${w}.withdrawals[${i}]`)) }),
  };
}

/** One entry of a block's `withdrawals` (EIP-4895: index, validatorIndex, address, amount in gwei). */
export function parseWithdrawal(v: unknown, what = 'withdrawal'): SourceWithdrawal {
  const x = obj(v, what);
  return {
    index: num(x.index, `${what}.index`),
    validatorIndex: num(x.validatorIndex, `${what}.validatorIndex`),
    address: address(x.address, `${what}.address`),
    amountGwei: big(x.amount, `${what}.amount`),
  };
}

export function parseLog(v: unknown): SourceLog {
  const l = obj(v, 'log');
  return {
    address: address(l.address, 'log.address'),
    topics: arr(l.topics, 'log.topics').map((t, i) => hex(t, `log.topics[${i}]`)),
    data: hex(l.data ?? '0x', 'log.data'),
    logIndex: num(l.logIndex, 'log.logIndex'),
    transactionHash: hash(l.transactionHash, 'log.transactionHash'),
    transactionIndex: num(l.transactionIndex, 'log.transactionIndex'),
  };
}

export function parseReceipt(v: unknown): SourceReceipt {
  const r = obj(v, 'receipt');
  const transactionHash = hash(r.transactionHash, 'receipt.transactionHash');
  const w = `receipt ${transactionHash}`;
  const status = r.status === undefined || r.status === null ? null : big(r.status, `${w}.status`) === 1n ? 'success' : 'reverted';
  return {
    transactionHash,
    transactionIndex: num(r.transactionIndex, `${w}.transactionIndex`),
    status,
    gasUsed: big(r.gasUsed, `${w}.gasUsed`),
    effectiveGasPrice: optBig(r.effectiveGasPrice, `${w}.effectiveGasPrice`),
    contractAddress: optAddress(r.contractAddress, `${w}.contractAddress`),
    logs: arr(r.logs ?? [], `${w}.logs`).map(parseLog),
  };
}

export function parseFrame(v: unknown, what = 'trace'): CallFrame {
  const f = obj(v, what);
  const error = typeof f.error === 'string' && f.error !== '' ? f.error : null;
  return {
    type: typeof f.type === 'string' ? f.type.toUpperCase() : 'CALL',
    from: address(f.from, `${what}.from`),
    to: optAddress(f.to, `${what}.to`),
    value: optBig(f.value, `${what}.value`),
    gas: optBig(f.gas, `${what}.gas`),
    gasUsed: optBig(f.gasUsed, `${what}.gasUsed`),
    input: hex(f.input ?? '0x', `${what}.input`),
    output: optHex(f.output, `${what}.output`),
    error,
    revertReason: typeof f.revertReason === 'string' ? f.revertReason : null,
    calls: arr(f.calls ?? [], `${what}.calls`).map((c, i) => parseFrame(c, `${what}.calls[${i}]`)),
  };
}

/**
 * One transaction's entry of a block trace: its result, or the error the tracer gave for it alone
 * (geth answers a block trace with `[{txHash, error: "execution timeout"}]` entries when one
 * transaction's trace ran out of time): the caller traces that one again.
 */
export type TraceEntry =
  | { readonly transactionHash: Hash; readonly result: unknown; readonly error?: undefined }
  | { readonly transactionHash: Hash; readonly error: string };

/** debug_traceBlockByNumber results carry txHash on current geth/anvil/reth; older ones only the order. */
export function traceEntries(v: unknown, hashes: readonly Hash[], what: string): TraceEntry[] {
  const results = arr(v, `${what} result`);
  if (results.length !== hashes.length) throw new RpcShapeError(`${what}: ${results.length} traces for ${hashes.length} transactions`);
  return results.map((r, i) => {
    const o = obj(r, `${what} item`);
    const transactionHash = o.txHash === undefined || o.txHash === null ? (hashes[i] as Hash) : hash(o.txHash, `${what}.txHash`);
    if (o.error !== undefined && o.error !== null && o.result === undefined) return { transactionHash, error: String(o.error) };
    return { transactionHash, result: o.result };
  });
}

export function parseCallTrace(transactionHash: Hash, result: unknown): TransactionTrace {
  return { transactionHash, frame: parseFrame(result) };
}

function parseAccounts(v: unknown, what: string): Map<Address, AccountState> {
  const out = new Map<Address, AccountState>();
  for (const [account, raw] of Object.entries(obj(v ?? {}, what))) {
    const a = obj(raw, `${what}.${account}`);
    const state: { balance?: bigint; nonce?: number; code?: Hex; storage?: Map<Hash, Hash> } = {};
    if (a.balance !== undefined && a.balance !== null) state.balance = big(a.balance, `${what}.${account}.balance`);
    if (a.nonce !== undefined && a.nonce !== null) state.nonce = num(a.nonce, `${what}.${account}.nonce`);
    if (typeof a.code === 'string') state.code = hex(a.code, `${what}.${account}.code`);
    if (a.storage !== undefined && a.storage !== null) {
      const storage = new Map<Hash, Hash>();
      for (const [slot, value] of Object.entries(obj(a.storage, `${what}.${account}.storage`))) {
        storage.set(hash(slot, `${what}.${account}.storage slot`), hash(value, `${what}.${account}.storage.${slot}`));
      }
      state.storage = storage;
    }
    out.set(address(account, `${what} address`), state);
  }
  return out;
}

export function parsePrestateDiff(transactionHash: Hash, result: unknown): PrestateDiff {
  const res = obj(result, 'prestateTracer result');
  return { transactionHash, pre: parseAccounts(res.pre, 'pre'), post: parseAccounts(res.post, 'post') };
}
