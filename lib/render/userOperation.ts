/**
 * A user operation as the account-abstraction paths answer it (Blockscout's user-ops-indexer
 * body, its addresses as Address objects, its call data decoded): `fee` = gasPrice × gasUsed,
 * `nonce` as 32-byte hex, `raw` rebuilt (the v0.6 struct or the v0.7+ packed form),
 * `execute_target` / `execute_call_data` from the call data.
 */
import type * as t from 'io-ts';
import type { Address, Hex } from '../domain/records.ts';
import type { UserOperationRecord } from '../domain/userOperations.ts';
import type { UserOperation, UserOperationInList } from '../schema/userOperation.ts';
import { executeCallOf } from '../userops/execute.ts';
import { renderAddress, renderAddressOrNull } from './address.ts';
import type { RenderContext } from './context.ts';
import { decodeCall } from '../decode/decoder.ts';
import { tiersFor } from './decode.ts';
import { checksum, dec, iso } from './format.ts';
import { hex } from '../domain/hex.ts';

export type UserOperationJson = t.OutputOf<typeof UserOperation>;
export type UserOperationInListJson = t.OutputOf<typeof UserOperationInList>;

/** `n` as `bytes` big-endian bytes of hex (no 0x) */
const hexOf = (n: bigint, bytes: number): string => n.toString(16).padStart(bytes * 2, '0');
const packed = (high: bigint, low: bigint): Hex => hex(`0x${hexOf(high, 16)}${hexOf(low, 16)}`);

/** what Blockscout renders as `fee`: gasPrice × gasUsed (may be slightly under actualGasCost) */
export const userOperationFee = (op: UserOperationRecord): bigint => op.gasPrice * op.gasUsed;

function raw(op: UserOperationRecord): UserOperationJson['raw'] {
  const common = { sender: checksum(op.sender), nonce: dec(op.nonce), init_code: op.initCode, call_data: op.callData };
  if (op.entryPointVersion === 'v0.6') {
    return {
      ...common,
      call_gas_limit: dec(op.callGasLimit),
      verification_gas_limit: dec(op.verificationGasLimit),
      pre_verification_gas: dec(op.preVerificationGas),
      max_fee_per_gas: dec(op.maxFeePerGas),
      max_priority_fee_per_gas: dec(op.maxPriorityFeePerGas),
      paymaster_and_data: op.paymasterAndData,
      signature: op.signature,
    };
  }
  return {
    ...common,
    account_gas_limits: packed(op.verificationGasLimit, op.callGasLimit),
    pre_verification_gas: dec(op.preVerificationGas),
    gas_fees: packed(op.maxPriorityFeePerGas, op.maxFeePerGas),
    paymaster_and_data: op.paymasterAndData,
    signature: op.signature,
  };
}

/** The addresses a rendered operation names (for the page's render context). */
export function userOperationAddresses(op: UserOperationRecord): Address[] {
  const execute = executeCallOf(op.callData);
  return [op.sender, op.entryPoint, op.bundler, ...(op.factory === null ? [] : [op.factory]), ...(op.paymaster === null ? [] : [op.paymaster]), ...(execute === null ? [] : [execute.target])];
}

/** One operation (`/operations/{h}`); the store lists only consensus operations: `consensus` true. */
export function renderUserOperation(op: UserOperationRecord, ctx: RenderContext): UserOperationJson {
  const execute = executeCallOf(op.callData);
  return {
    hash: op.hash,
    sender: renderAddress(op.sender, ctx),
    nonce: `0x${hexOf(op.nonce, 32)}`,
    call_data: op.callData,
    call_gas_limit: dec(op.callGasLimit),
    verification_gas_limit: dec(op.verificationGasLimit),
    pre_verification_gas: dec(op.preVerificationGas),
    max_fee_per_gas: dec(op.maxFeePerGas),
    max_priority_fee_per_gas: dec(op.maxPriorityFeePerGas),
    signature: op.signature,
    raw: raw(op),
    aggregator: op.aggregator === null ? null : checksum(op.aggregator),
    aggregator_signature: op.aggregatorSignature,
    entry_point: renderAddress(op.entryPoint, ctx),
    entry_point_version: op.entryPointVersion,
    transaction_hash: op.transactionHash,
    block_number: String(op.blockNumber),
    block_hash: op.blockHash,
    bundler: renderAddress(op.bundler, ctx),
    bundle_index: op.bundleIndex,
    index: op.index,
    factory: renderAddressOrNull(op.factory, ctx),
    paymaster: renderAddressOrNull(op.paymaster, ctx),
    status: op.status,
    revert_reason: op.revertReason,
    gas: dec(op.gas),
    gas_price: dec(op.gasPrice),
    gas_used: dec(op.gasUsed),
    sponsor_type: op.sponsorType,
    user_logs_start_index: op.userLogsStartIndex,
    user_logs_count: op.userLogsCount,
    fee: dec(userOperationFee(op)),
    consensus: true,
    timestamp: iso(op.timestamp),
    execute_target: execute === null ? null : renderAddress(execute.target, ctx),
    execute_call_data: execute === null ? null : execute.callData,
    decoded_call_data: decodeCall(tiersFor(ctx, op.sender, op.blockNumber, op.transactionIndex), op.callData),
    decoded_execute_call_data: execute === null ? null : decodeCall(tiersFor(ctx, execute.target, op.blockNumber, op.transactionIndex), execute.callData),
  };
}

/** An operation in a list (`/operations`). */
export function renderUserOperationInList(op: UserOperationRecord, ctx: Pick<RenderContext, 'addresses'> & Partial<RenderContext>): UserOperationInListJson {
  return {
    hash: op.hash,
    address: renderAddress(op.sender, ctx),
    entry_point: renderAddress(op.entryPoint, ctx),
    entry_point_version: op.entryPointVersion,
    transaction_hash: op.transactionHash,
    block_number: String(op.blockNumber),
    status: op.status,
    fee: dec(userOperationFee(op)),
    timestamp: iso(op.timestamp),
  };
}
