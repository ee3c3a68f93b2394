/**
 * ERC-4337 user operations as the indexer stores them: one record per operation of a bundle
 * (a successful `handleOps` / `handleAggregatedOps` call to a known EntryPoint), with the
 * fields Blockscout's user-ops-indexer derives (see lib/userops/). Conventions as in
 * records.ts: lower-case hex, bigint for gas and wei, number for heights and positions.
 *
 * What the API needs beyond these is derived on read: `fee` (gasPrice × gasUsed), `raw` (the
 * v0.6 struct or the v0.7+ packed form: accountGasLimits, gasFees and the paymaster gas limits
 * re-packed from the fields below), `execute_target` / `execute_call_data` (from callData),
 * accounts, bundles, bundlers, paymasters and factories (grouped from the records).
 */
import type { Address, Hash, Hex } from './records.ts';

export const ENTRY_POINT_VERSIONS = ['v0.6', 'v0.7', 'v0.8'] as const;
export type EntryPointVersion = (typeof ENTRY_POINT_VERSIONS)[number];

export const SPONSOR_TYPES = ['wallet_deposit', 'wallet_balance', 'paymaster_sponsor', 'paymaster_hybrid'] as const;
export type SponsorType = (typeof SPONSOR_TYPES)[number];

export interface UserOperationRecord {
  /** userOpHash of its UserOperationEvent (never recomputed) */
  readonly hash: Hash;
  readonly sender: Address;
  readonly nonce: bigint;
  /** initCode as sent ('0x' when empty); v0.7+: factory ++ factoryData */
  readonly initCode: Hex;
  readonly callData: Hex;
  readonly callGasLimit: bigint;
  readonly verificationGasLimit: bigint;
  readonly preVerificationGas: bigint;
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
  /** paymasterAndData as sent ('0x' when empty) */
  readonly paymasterAndData: Hex;
  readonly signature: Hex;
  /** handleAggregatedOps: the group's aggregator and signature; null for handleOps */
  readonly aggregator: Address | null;
  readonly aggregatorSignature: Hex | null;
  readonly entryPoint: Address;
  readonly entryPointVersion: EntryPointVersion;
  readonly transactionHash: Hash;
  readonly transactionIndex: number;
  readonly blockNumber: number;
  readonly blockHash: Hash;
  /** unix seconds of the block */
  readonly timestamp: number;
  /** the `beneficiary` argument of the handleOps call (as Blockscout takes it), not tx.from */
  readonly bundler: Address;
  /** 0-based position of the bundle's BeforeExecution among its version family's in the transaction */
  readonly bundleIndex: number;
  /** 0-based position of the operation in the bundle (handleAggregatedOps: flattened) */
  readonly index: number;
  /** first 20 bytes of initCode (null when shorter, or the EIP-7702 marker on v0.7+) */
  readonly factory: Address | null;
  /** first 20 bytes of paymasterAndData (null when shorter) */
  readonly paymaster: Address | null;
  /** the UserOperationEvent's `success` */
  readonly status: boolean;
  /** raw revertReason of the operation's first UserOperationRevertReason; null without one */
  readonly revertReason: Hex | null;
  /** v0.6: call + verification × (paymaster ? 3 : 1) + preVerification; v0.7+: the five limits summed */
  readonly gas: bigint;
  /** actualGasCost / actualGasUsed (integer division; 0 when nothing was used) */
  readonly gasPrice: bigint;
  /** actualGasUsed */
  readonly gasUsed: bigint;
  /** actualGasCost (Blockscout renders fee as gasPrice × gasUsed, which may be slightly less) */
  readonly actualGasCost: bigint;
  readonly sponsorType: SponsorType;
  /** logIndex of the operation's first own log (0 when it has none and the window is empty) */
  readonly userLogsStartIndex: number;
  readonly userLogsCount: number;
}
