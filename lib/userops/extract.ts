/**
 * A block's transactions, receipts and callTracer frames → its user operations: for each
 * transaction and EntryPoint family, each BeforeExecution the family's EntryPoints logged starts
 * a bundle (bundle_index = its position among them); the bundles' calls (calls.ts) are matched
 * to the markers in order, each call's operations to their UserOperationEvents (logs.ts), and
 * each operation's fields derived as Blockscout's user-ops-indexer derives them. A transaction
 * whose calls cannot be told or do not match its markers yields nothing, as does a bundle with
 * an operation that logged no event, and a reverted transaction (it logged nothing).
 */
import type { Address, Hash, Hex } from '../domain/records.ts';
import type { EntryPointVersion, SponsorType, UserOperationRecord } from '../domain/userOperations.ts';
import type { CallFrame, SourceBlock, SourceReceipt, SourceTransaction, TransactionTrace } from '../ports/chainSource.ts';
import { TOPICS } from './abi.ts';
import type { DecodedOperation } from './calldata.ts';
import type { BundleCall } from './calls.ts';
import { bundleCalls } from './calls.ts';
import type { EntryPointFamily, EntryPoints } from './entryPoints.ts';
import { familyOf } from './entryPoints.ts';
import type { OperationSlice } from './logs.ts';
import { depositedAccounts, firstRevertReason, operationSlices, userLogBounds } from './logs.ts';
import { address } from '../domain/hex.ts';

export interface UserOperationInput {
  readonly block: SourceBlock;
  /** one per transaction */
  readonly receipts: readonly SourceReceipt[];
  /** null when the node cannot trace */
  readonly traces: readonly TransactionTrace[] | null;
}

const FAMILIES: readonly EntryPointFamily[] = ['v0.6', 'v0.7'];
/** EIP-7702's marker in initCode: no factory */
const EIP7702_FACTORY = address('0x7702000000000000000000000000000000000000');

/** the first 20 bytes of a byte string, when it has them */
function leadingAddress(b: Hex): Address | null {
  return b.length >= 42 ? (b.slice(0, 42).toLowerCase() as Address) : null;
}

function sponsorTypeOf(sender: Address, paymaster: Address | null, deposits: ReadonlySet<Address>): SponsorType {
  if (paymaster === null) return deposits.has(sender) ? 'wallet_deposit' : 'wallet_balance';
  return deposits.has(paymaster) ? 'paymaster_hybrid' : 'paymaster_sponsor';
}

function gasOf(family: EntryPointFamily, op: DecodedOperation, paymaster: Address | null): bigint {
  if (family === 'v0.6') return op.callGasLimit + op.verificationGasLimit * (paymaster === null ? 1n : 3n) + op.preVerificationGas;
  return op.callGasLimit + op.verificationGasLimit + op.preVerificationGas + op.paymasterGas;
}

interface BundleContext {
  readonly block: SourceBlock;
  readonly tx: SourceTransaction;
  readonly receipt: SourceReceipt;
  readonly call: BundleCall;
  readonly version: EntryPointVersion;
  readonly family: EntryPointFamily;
  readonly bundleIndex: number;
}

function operationRecord(x: BundleContext, op: DecodedOperation, index: number, slice: OperationSlice): UserOperationRecord {
  const { block, tx, call, family } = x;
  const leading = leadingAddress(op.initCode);
  const factory = family === 'v0.7' && leading === EIP7702_FACTORY ? null : leading;
  const paymaster = leadingAddress(op.paymasterAndData);
  const { event } = slice;
  const bounds = userLogBounds(slice.logs, call.entryPoint, paymaster);
  return {
    hash: event.hash as Hash,
    sender: op.sender,
    nonce: op.nonce,
    initCode: op.initCode,
    callData: op.callData,
    callGasLimit: op.callGasLimit,
    verificationGasLimit: op.verificationGasLimit,
    preVerificationGas: op.preVerificationGas,
    maxFeePerGas: op.maxFeePerGas,
    maxPriorityFeePerGas: op.maxPriorityFeePerGas,
    paymasterAndData: op.paymasterAndData,
    signature: op.signature,
    aggregator: op.aggregator,
    aggregatorSignature: op.aggregatorSignature,
    entryPoint: call.entryPoint,
    entryPointVersion: x.version,
    transactionHash: tx.hash,
    transactionIndex: tx.index,
    blockNumber: block.number,
    blockHash: block.hash,
    timestamp: block.timestamp,
    bundler: call.beneficiary,
    bundleIndex: x.bundleIndex,
    index,
    factory,
    paymaster,
    status: event.success,
    revertReason: firstRevertReason(slice.logs, call.entryPoint),
    gas: gasOf(family, op, paymaster),
    gasPrice: event.actualGasUsed === 0n ? 0n : event.actualGasCost / event.actualGasUsed,
    gasUsed: event.actualGasUsed,
    actualGasCost: event.actualGasCost,
    sponsorType: sponsorTypeOf(op.sender, paymaster, depositedAccounts(x.receipt.logs, call.entryPoint)),
    userLogsStartIndex: bounds.start,
    userLogsCount: bounds.count,
  };
}

/** one transaction's operations of one family */
function familyOperations(
  block: SourceBlock,
  tx: SourceTransaction,
  receipt: SourceReceipt,
  frame: CallFrame | undefined,
  entryPoints: EntryPoints,
  family: EntryPointFamily,
): UserOperationRecord[] {
  const isMarker = (address: Address, topic0: Hex | undefined): boolean => {
    const v = entryPoints.get(address);
    return topic0 === TOPICS.beforeExecution && v !== undefined && familyOf(v) === family;
  };
  const markers = receipt.logs.flatMap((log, i) => (isMarker(log.address, log.topics[0]) ? [i] : []));
  if (markers.length === 0) return [];
  const calls = bundleCalls(tx, frame, markers.length, entryPoints, family);
  if (calls === null || calls.length !== markers.length) return [];
  const out: UserOperationRecord[] = [];
  calls.forEach((call, bundleIndex) => {
    const window = receipt.logs.slice((markers[bundleIndex] ?? 0) + 1);
    const slices = operationSlices(window, call.entryPoint, call.operations);
    const version = entryPoints.get(call.entryPoint);
    if (slices === null || version === undefined) return;
    const x: BundleContext = { block, tx, receipt, call, version, family, bundleIndex };
    call.operations.forEach((op, index) => {
      const slice = slices[index];
      if (slice !== undefined) out.push(operationRecord(x, op, index, slice));
    });
  });
  return out;
}

/** Every user operation of a block, in transaction order, then family, bundle and position. */
export function userOperationsOf(input: UserOperationInput, entryPoints: EntryPoints): UserOperationRecord[] {
  if (entryPoints.size === 0) return [];
  const receipts = new Map(input.receipts.map((r) => [r.transactionHash, r]));
  const frames = new Map((input.traces ?? []).map((t) => [t.transactionHash, t.frame]));
  const out: UserOperationRecord[] = [];
  for (const tx of input.block.transactions) {
    const receipt = receipts.get(tx.hash);
    if (receipt === undefined || receipt.status === 'reverted' || receipt.logs.length === 0) continue;
    for (const family of FAMILIES) out.push(...familyOperations(input.block, tx, receipt, frames.get(tx.hash), entryPoints, family));
  }
  return out;
}
