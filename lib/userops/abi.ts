/**
 * The EntryPoint ABI fragments the user-operation transform reads: the two bundle calls of
 * v0.6 (UserOperation) and of v0.7/v0.8 (PackedUserOperation), and the events they share.
 */
import { parseAbi, toEventSelector } from 'viem';
import { hex } from '../domain/hex.ts';

const EVENTS = [
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
  'event AccountDeployed(bytes32 indexed userOpHash, address indexed sender, address factory, address paymaster)',
  'event UserOperationRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason)',
  'event BeforeExecution()',
  'event Deposited(address indexed account, uint256 totalDeposit)',
] as const;

export const ENTRY_POINT_EVENTS_ABI = parseAbi(EVENTS);

export const ENTRY_POINT_V06_ABI = parseAbi([
  'struct UserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; uint256 callGasLimit; uint256 verificationGasLimit; uint256 preVerificationGas; uint256 maxFeePerGas; uint256 maxPriorityFeePerGas; bytes paymasterAndData; bytes signature; }',
  'struct UserOpsPerAggregator { UserOperation[] userOps; address aggregator; bytes signature; }',
  'function handleOps(UserOperation[] ops, address beneficiary)',
  'function handleAggregatedOps(UserOpsPerAggregator[] opsPerAggregator, address beneficiary)',
]);

export const ENTRY_POINT_V07_ABI = parseAbi([
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'struct PackedUserOpsPerAggregator { PackedUserOperation[] userOps; address aggregator; bytes signature; }',
  'function handleOps(PackedUserOperation[] ops, address beneficiary)',
  'function handleAggregatedOps(PackedUserOpsPerAggregator[] opsPerAggregator, address beneficiary)',
]);

/** topic0 of each event the transform reads */
export const TOPICS = {
  userOperationEvent: hex(toEventSelector(EVENTS[0])),
  accountDeployed: hex(toEventSelector(EVENTS[1])),
  userOperationRevertReason: hex(toEventSelector(EVENTS[2])),
  beforeExecution: hex(toEventSelector(EVENTS[3])),
  deposited: hex(toEventSelector(EVENTS[4])),
} as const;
