/**
 * The DataSink contract's input checks, shared by every store: a write of a malformed bundle
 * is refused whole (InvalidWriteError) before anything is applied. Pure; reads its input only.
 */
import type { Address, BlockBundle, Hash, InternalTransactionRecord, TokenType, TransactionRecord } from '../domain/records.ts';
import { TOKEN_TYPES } from '../domain/records.ts';

export class InvalidWriteError extends Error {
  override readonly name = 'InvalidWriteError';
}

/** The top-level call (type call, index 0) is never listed; index-0 creates are. */
export function isListedInternal(r: InternalTransactionRecord): boolean {
  return !(r.type === 'call' && r.index === 0);
}

const HEX = /^0x[0-9a-f]*$/;

export function checkHex(value: unknown, what: string): asserts value is Address {
  if (typeof value !== 'string' || !HEX.test(value)) {
    throw new InvalidWriteError(`${what}: expected lower-case 0x hex, got ${String(value)}`);
  }
}
function checkOptHex(value: unknown, what: string): void {
  if (value !== null) checkHex(value, what);
}
function checkInt(value: unknown, what: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidWriteError(`${what}: expected a non-negative integer, got ${String(value)}`);
  }
}
function checkBigint(value: unknown, what: string): void {
  if (typeof value !== 'bigint') throw new InvalidWriteError(`${what}: expected a bigint, got ${typeof value}`);
}
function checkOptBigint(value: unknown, what: string): void {
  if (value !== null) checkBigint(value, what);
}
function checkBigints(value: unknown, what: string): void {
  if (!Array.isArray(value)) throw new InvalidWriteError(`${what}: expected an array`);
  for (const v of value) checkBigint(v, what);
}
function checkTokenType(value: unknown, what: string): asserts value is TokenType {
  if (!(TOKEN_TYPES as readonly unknown[]).includes(value)) {
    throw new InvalidWriteError(`${what}: unknown token type ${String(value)}`);
  }
}

function unique(seen: Set<string>, key: string, what: string): void {
  if (seen.has(key)) throw new InvalidWriteError(`${what}: duplicate ${key}`);
  seen.add(key);
}

/** What every row check of one bundle needs: its block, the error prefix, its transactions by hash. */
interface BundleCheck {
  readonly block: BlockBundle['block'];
  /** `block <number> <hash>`, the prefix of every error */
  readonly at: string;
  readonly transactions: Map<Hash, TransactionRecord>;
}

function inBlock(c: BundleCheck, r: { readonly blockNumber: number | null; readonly blockHash: Hash | null }, what: string): void {
  if (r.blockNumber !== c.block.number || r.blockHash !== c.block.hash) {
    throw new InvalidWriteError(`${c.at}: ${what} belongs to block ${String(r.blockNumber)} ${String(r.blockHash)}`);
  }
}

function atBlock(c: BundleCheck, r: { readonly blockNumber: number }, what: string): void {
  if (r.blockNumber !== c.block.number) {
    throw new InvalidWriteError(`${c.at}: ${what} has blockNumber ${r.blockNumber}`);
  }
}

/** Rows that hang off a transaction must name one of this block, at its position. */
function ofTx(c: BundleCheck, r: { readonly transactionHash: Hash; readonly transactionIndex?: number }, what: string): void {
  const tx = c.transactions.get(r.transactionHash);
  if (tx === undefined) throw new InvalidWriteError(`${c.at}: ${what} of unknown transaction ${r.transactionHash}`);
  if (r.transactionIndex !== undefined && r.transactionIndex !== tx.index) {
    throw new InvalidWriteError(`${c.at}: ${what} has transactionIndex ${r.transactionIndex}, transaction has ${tx.index}`);
  }
}

function checkTransactions(c: BundleCheck, bundle: BlockBundle): void {
  const { at, transactions } = c;
  const txIndexes = new Set<string>();
  for (const tx of bundle.transactions) {
    checkHex(tx.hash, `${at}: transaction.hash`);
    const what = `transaction ${tx.hash}`;
    inBlock(c, tx, what);
    checkInt(tx.index, `${at}: ${what}: index`);
    checkHex(tx.from, `${at}: ${what}: from`);
    checkOptHex(tx.to, `${at}: ${what}: to`);
    checkOptHex(tx.createdContract, `${at}: ${what}: createdContract`);
    if (!Array.isArray(tx.kinds)) throw new InvalidWriteError(`${at}: ${what}: kinds must be an array`);
    if (transactions.has(tx.hash)) throw new InvalidWriteError(`${at}: duplicate transaction ${tx.hash}`);
    unique(txIndexes, String(tx.index), `${at}: transaction index`);
    transactions.set(tx.hash, tx);
  }
}

/** internal transactions, logs and token transfers: the rows of a transaction's execution */
function checkExecution(c: BundleCheck, bundle: BlockBundle): void {
  const { at } = c;
  const internalKeys = new Set<string>();
  for (const r of bundle.internalTransactions) {
    const what = `internal transaction ${r.transactionHash}#${r.index}`;
    inBlock(c, r, what);
    ofTx(c, r, what);
    checkInt(r.index, `${at}: ${what}: index`);
    checkHex(r.from, `${at}: ${what}: from`);
    checkOptHex(r.to, `${at}: ${what}: to`);
    checkOptHex(r.createdContract, `${at}: ${what}: createdContract`);
    unique(internalKeys, `${r.transactionHash}#${r.index}`, `${at}: internal transaction`);
  }
  const logIndexes = new Set<string>();
  for (const r of bundle.logs) {
    const what = `log ${r.index}`;
    inBlock(c, r, what);
    ofTx(c, r, what);
    checkInt(r.index, `${at}: ${what}: index`);
    checkHex(r.address, `${at}: ${what}: address`);
    unique(logIndexes, String(r.index), `${at}: log index`);
  }
  const transferIndexes = new Set<string>();
  for (const r of bundle.tokenTransfers) {
    const what = `token transfer at log ${r.logIndex}`;
    inBlock(c, r, what);
    ofTx(c, r, what);
    checkInt(r.logIndex, `${at}: ${what}: logIndex`);
    checkHex(r.from, `${at}: ${what}: from`);
    checkHex(r.to, `${at}: ${what}: to`);
    checkHex(r.tokenAddress, `${at}: ${what}: tokenAddress`);
    checkTokenType(r.tokenType, `${at}: ${what}: tokenType`);
    checkBigints(r.tokenIds, `${at}: ${what}: tokenIds`);
    checkBigints(r.amounts, `${at}: ${what}: amounts`);
    unique(transferIndexes, String(r.logIndex), `${at}: token transfer logIndex`);
  }
}

/** tokens, balances, instances and addresses: the state the block leaves */
function checkState(c: BundleCheck, bundle: BlockBundle): void {
  const { at } = c;
  for (const r of bundle.tokens) {
    checkHex(r.address, `${at}: token.address`);
    checkTokenType(r.type, `${at}: token ${r.address}: type`);
  }
  for (const r of bundle.tokenBalances) {
    const what = `token balance ${r.holder}/${r.tokenAddress}`;
    checkHex(r.holder, `${at}: ${what}: holder`);
    checkHex(r.tokenAddress, `${at}: ${what}: tokenAddress`);
    checkTokenType(r.tokenType, `${at}: ${what}: tokenType`);
    checkOptBigint(r.tokenId, `${at}: ${what}: tokenId`);
    checkBigint(r.value, `${at}: ${what}: value`);
    atBlock(c, r, what);
  }
  for (const r of bundle.coinBalances) {
    checkHex(r.address, `${at}: coin balance address`);
    atBlock(c, r, `coin balance ${r.address}`);
  }
  for (const r of bundle.tokenInstances) {
    const what = `token instance ${r.tokenAddress}#${r.tokenId}`;
    checkHex(r.tokenAddress, `${at}: ${what}: tokenAddress`);
    checkTokenType(r.tokenType, `${at}: ${what}: tokenType`);
    checkBigint(r.tokenId, `${at}: ${what}: tokenId`);
    atBlock(c, r, what);
  }
  for (const r of bundle.addresses) {
    checkHex(r.hash, `${at}: address.hash`);
    atBlock(c, r, `address ${r.hash}`);
  }
  const ordinals = new Set<string>();
  for (const r of bundle.stateChanges) {
    const what = `state change ${r.transactionHash}#${r.ordinal}`;
    ofTx(c, r, what);
    checkHex(r.address, `${at}: ${what}: address`);
    checkOptHex(r.tokenAddress, `${at}: ${what}: tokenAddress`);
    unique(ordinals, `${r.transactionHash}#${r.ordinal}`, `${at}: state change`);
  }
}

function checkWithdrawals(c: BundleCheck, bundle: BlockBundle): void {
  const { at, block } = c;
  const withdrawalIndexes = new Set<string>();
  for (const r of bundle.withdrawals ?? []) {
    const what = `withdrawal ${String(r.index)}`;
    checkInt(r.index, `${at}: withdrawal index`);
    checkInt(r.validatorIndex, `${at}: ${what}: validatorIndex`);
    checkHex(r.address, `${at}: ${what}: address`);
    checkBigint(r.amount, `${at}: ${what}: amount`);
    if (r.amount < 0n) throw new InvalidWriteError(`${at}: ${what}: negative amount`);
    inBlock(c, r, what);
    if (r.timestamp !== block.timestamp) throw new InvalidWriteError(`${at}: ${what} has timestamp ${r.timestamp}, block has ${block.timestamp}`);
    unique(withdrawalIndexes, String(r.index), `${at}: withdrawal index`);
  }
}

function checkContracts(c: BundleCheck, bundle: BlockBundle): void {
  const { at } = c;
  const contracts = new Set<string>();
  for (const r of bundle.contractCodes ?? []) {
    const what = `contract ${String(r.address)}`;
    checkHex(r.address, `${at}: contract.address`);
    inBlock(c, r, what);
    ofTx(c, r, what);
    checkInt(r.timestamp, `${at}: ${what}: timestamp`);
    checkHex(r.creator, `${at}: ${what}: creator`);
    checkHex(r.deployedBytecode, `${at}: ${what}: deployedBytecode`);
    checkOptHex(r.creationBytecode, `${at}: ${what}: creationBytecode`);
    unique(contracts, r.address, `${at}: contract`);
  }
}

function checkTraceFrames(c: BundleCheck, bundle: BlockBundle): void {
  const { at } = c;
  const frames = new Set<string>();
  for (const r of bundle.traceFrames ?? []) {
    const what = `trace frame ${r.transactionHash}#${r.index}`;
    inBlock(c, r, what);
    ofTx(c, r, what);
    checkInt(r.index, `${at}: ${what}: index`);
    if (!Array.isArray(r.traceAddress)) throw new InvalidWriteError(`${at}: ${what}: traceAddress must be an array`);
    for (const i of r.traceAddress) checkInt(i, `${at}: ${what}: traceAddress`);
    if (typeof r.type !== 'string' || r.type === '') throw new InvalidWriteError(`${at}: ${what}: type must be a non-empty string`);
    checkHex(r.from, `${at}: ${what}: from`);
    checkOptHex(r.to, `${at}: ${what}: to`);
    checkOptBigint(r.value, `${at}: ${what}: value`);
    checkOptBigint(r.gas, `${at}: ${what}: gas`);
    checkOptBigint(r.gasUsed, `${at}: ${what}: gasUsed`);
    checkHex(r.input, `${at}: ${what}: input`);
    checkOptHex(r.output, `${at}: ${what}: output`);
    unique(frames, `${r.transactionHash}#${r.index}`, `${at}: trace frame`);
  }
}

function checkUserOperations(c: BundleCheck, bundle: BlockBundle): void {
  const { at } = c;
  const hashes = new Set<string>();
  for (const r of bundle.userOperations ?? []) {
    const what = `user operation ${String(r.hash)}`;
    checkHex(r.hash, `${at}: user operation hash`);
    inBlock(c, r, what);
    ofTx(c, r, what);
    for (const [k, v] of [['sender', r.sender], ['entryPoint', r.entryPoint], ['bundler', r.bundler]] as const) checkHex(v, `${at}: ${what}: ${k}`);
    for (const [k, v] of [['factory', r.factory], ['paymaster', r.paymaster], ['aggregator', r.aggregator]] as const) checkOptHex(v, `${at}: ${what}: ${k}`);
    checkInt(r.bundleIndex, `${at}: ${what}: bundleIndex`);
    checkInt(r.index, `${at}: ${what}: index`);
    checkBigint(r.gasUsed, `${at}: ${what}: gasUsed`);
    unique(hashes, r.hash, `${at}: user operation`);
  }
}

/**
 * Check one bundle against the DataSink contract (lib/ports.ts): hex fields lower-case, rows
 * inside their block and transaction, no duplicate keys. Throws InvalidWriteError; reads only.
 */
export function validateBundle(bundle: BlockBundle): void {
  const { block } = bundle;
  checkInt(block.number, 'block.number');
  checkHex(block.hash, 'block.hash');
  checkHex(block.parentHash, 'block.parentHash');
  checkHex(block.miner, 'block.miner');
  const c: BundleCheck = { block, at: `block ${block.number} ${block.hash}`, transactions: new Map() };
  checkTransactions(c, bundle);
  checkExecution(c, bundle);
  checkState(c, bundle);
  checkWithdrawals(c, bundle);
  checkContracts(c, bundle);
  checkTraceFrames(c, bundle);
  checkUserOperations(c, bundle);
}

/** Check mempool transactions (no block, lower-case hex). Throws InvalidWriteError. */
export function validatePending(txs: readonly TransactionRecord[]): void {
  for (const tx of txs) {
    checkHex(tx.hash, 'pending transaction.hash');
    checkHex(tx.from, `pending transaction ${tx.hash}: from`);
    checkOptHex(tx.to, `pending transaction ${tx.hash}: to`);
    if (!Array.isArray(tx.kinds)) throw new InvalidWriteError(`pending transaction ${tx.hash}: kinds must be an array`);
    if (tx.blockNumber !== null || tx.blockHash !== null || tx.index !== null) {
      throw new InvalidWriteError(`pending transaction ${tx.hash} has a block`);
    }
  }
}
