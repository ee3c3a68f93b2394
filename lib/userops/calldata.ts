/**
 * A bundle call's input → its operations, flattened in order (handleAggregatedOps: group after
 * group, each operation carrying its group's aggregator and signature), and its beneficiary.
 * v0.7/v0.8 packed fields are unpacked: accountGasLimits = verificationGasLimit ‖ callGasLimit,
 * gasFees = maxPriorityFeePerGas ‖ maxFeePerGas, paymasterAndData[20..52] = the paymaster's
 * verification ‖ postOp gas limits (16 bytes each).
 */
import { decodeFunctionData } from 'viem';
import type { Address, Hex } from '../domain/records.ts';
import type { UserOperationRecord } from '../domain/userOperations.ts';
import { ENTRY_POINT_V06_ABI, ENTRY_POINT_V07_ABI } from './abi.ts';
import type { EntryPointFamily } from './entryPoints.ts';
import { address, hex } from '../domain/hex.ts';

/** the fields a bundle call's input gives an operation, as its record holds them */
type SentFields = Pick<
  UserOperationRecord,
  'sender' | 'nonce' | 'initCode' | 'callData' | 'callGasLimit' | 'verificationGasLimit' | 'preVerificationGas' | 'maxFeePerGas' | 'maxPriorityFeePerGas' | 'paymasterAndData' | 'signature'
>;

export interface DecodedOperation extends SentFields {
  /** v0.7+: paymasterVerificationGasLimit + paymasterPostOpGasLimit; 0 on v0.6 */
  readonly paymasterGas: bigint;
  readonly aggregator: Address | null;
  readonly aggregatorSignature: Hex | null;
}

export interface DecodedBundle {
  readonly beneficiary: Address;
  readonly operations: readonly DecodedOperation[];
}

/** a field as the ABI decoder gives it: hex of any case, not yet of a kind */
type Decoded<T> = T extends Hex ? `0x${string}` : T;
type AsDecoded<T> = { readonly [K in keyof T]: Decoded<T[K]> };

/** v0.6's UserOperation struct: the fields as sent */
type V06Op = AsDecoded<SentFields>;

/** v0.7/v0.8's PackedUserOperation: the gas limits and fees packed in pairs */
type V07Op = AsDecoded<Pick<SentFields, 'sender' | 'nonce' | 'initCode' | 'callData' | 'preVerificationGas' | 'paymasterAndData' | 'signature'>> & {
  readonly accountGasLimits: `0x${string}`;
  readonly gasFees: `0x${string}`;
};

interface Group<O> {
  readonly ops: readonly O[];
  readonly aggregator: `0x${string}` | null;
  readonly signature: `0x${string}` | null;
}

const lower = (h: string): Hex => hex(h.toLowerCase());
const lowerAddress = (h: string): Address => address(h.toLowerCase());

/** the two 16-byte halves of 32 bytes of hex (without 0x) */
function halves(hex32: string): [bigint, bigint] {
  const h = hex32.padEnd(64, '0');
  return [BigInt(`0x${h.slice(0, 32)}`), BigInt(`0x${h.slice(32, 64)}`)];
}

function fromV06(op: V06Op, g: Group<unknown>): DecodedOperation {
  return {
    sender: lowerAddress(op.sender),
    nonce: op.nonce,
    initCode: lower(op.initCode),
    callData: lower(op.callData),
    callGasLimit: op.callGasLimit,
    verificationGasLimit: op.verificationGasLimit,
    preVerificationGas: op.preVerificationGas,
    maxFeePerGas: op.maxFeePerGas,
    maxPriorityFeePerGas: op.maxPriorityFeePerGas,
    paymasterAndData: lower(op.paymasterAndData),
    signature: lower(op.signature),
    paymasterGas: 0n,
    aggregator: g.aggregator === null ? null : lowerAddress(g.aggregator),
    aggregatorSignature: g.signature === null ? null : lower(g.signature),
  };
}

function fromV07(op: V07Op, g: Group<unknown>): DecodedOperation {
  const [verificationGasLimit, callGasLimit] = halves(op.accountGasLimits.slice(2));
  const [maxPriorityFeePerGas, maxFeePerGas] = halves(op.gasFees.slice(2));
  const pm = op.paymasterAndData.slice(2);
  // 52 bytes = paymaster (20) + two 16-byte limits
  const [pmVerification, pmPostOp] = pm.length >= 104 ? halves(pm.slice(40, 104)) : [0n, 0n];
  return {
    sender: lowerAddress(op.sender),
    nonce: op.nonce,
    initCode: lower(op.initCode),
    callData: lower(op.callData),
    callGasLimit,
    verificationGasLimit,
    preVerificationGas: op.preVerificationGas,
    maxFeePerGas,
    maxPriorityFeePerGas,
    paymasterAndData: lower(op.paymasterAndData),
    signature: lower(op.signature),
    paymasterGas: pmVerification + pmPostOp,
    aggregator: g.aggregator === null ? null : lowerAddress(g.aggregator),
    aggregatorSignature: g.signature === null ? null : lower(g.signature),
  };
}

function decodeV06(input: Hex): DecodedBundle {
  const call = decodeFunctionData({ abi: ENTRY_POINT_V06_ABI, data: input });
  if (call.functionName === 'handleOps') {
    const [ops, beneficiary] = call.args;
    const g: Group<V06Op> = { ops, aggregator: null, signature: null };
    return { beneficiary: lowerAddress(beneficiary), operations: ops.map((op) => fromV06(op, g)) };
  }
  const [groups, beneficiary] = call.args;
  return {
    beneficiary: lowerAddress(beneficiary),
    operations: groups.flatMap((g) => g.userOps.map((op) => fromV06(op, { ops: g.userOps, aggregator: g.aggregator, signature: g.signature }))),
  };
}

function decodeV07(input: Hex): DecodedBundle {
  const call = decodeFunctionData({ abi: ENTRY_POINT_V07_ABI, data: input });
  if (call.functionName === 'handleOps') {
    const [ops, beneficiary] = call.args;
    const g: Group<V07Op> = { ops, aggregator: null, signature: null };
    return { beneficiary: lowerAddress(beneficiary), operations: ops.map((op) => fromV07(op, g)) };
  }
  const [groups, beneficiary] = call.args;
  return {
    beneficiary: lowerAddress(beneficiary),
    operations: groups.flatMap((g) => g.userOps.map((op) => fromV07(op, { ops: g.userOps, aggregator: g.aggregator, signature: g.signature }))),
  };
}

/** The bundle a call input holds, or null when it is no handleOps / handleAggregatedOps of that family. */
export function decodeBundleCall(family: EntryPointFamily, input: Hex): DecodedBundle | null {
  try {
    return family === 'v0.6' ? decodeV06(input) : decodeV07(input);
  } catch {
    return null;
  }
}
