/**
 * `execute_target` / `execute_call_data` of a user operation, worked out from its call data as
 * Blockscout's user-ops-indexer does on every read: only when the call data starts with one of
 * the account `execute`-like methods below, whose arguments begin with (address target, uint256
 * value, bytes data); those three are read leniently (trailing arguments ignored). One level
 * only: batches (executeBatch) and ERC-7579 `execute(bytes32,bytes)` give null.
 */
import { toFunctionSelector } from 'viem';
import type { Address, Hex } from '../domain/records.ts';

/**
 * Account methods whose call is (target, value, data, …): the fifteen of Blockscout's
 * user-ops-indexer (`EXECUTE_SELECTORS` in its indexer's common.rs), as it lists them.
 */
const EXECUTE_SIGNATURES = [
  'execute(address,uint256,bytes)',
  'execute(address,uint256,bytes,uint8)',
  'execute(address,uint256,bytes,bytes)',
  'execute_ncC(address,uint256,bytes)',
  'execTransactionFromEntrypoint(address,uint256,bytes)',
  'execTransactionFromEntrypoint(address,uint256,bytes,uint8)',
  'execTransactionFromEntrypoint(address,uint256,bytes,uint8,address,address,uint256)',
  'executeAndRevert(address,uint256,bytes,uint8)',
  'execFromEntryPoint(address,uint256,bytes)',
  'executeCall(address,uint256,bytes)',
  'executeUserOp(address,uint256,bytes,uint8)',
  'execFromEntryPointWithFee(address,uint256,bytes,(address,address,uint256))',
  'send(address,uint256,bytes)',
  'callContract(address,uint256,bytes,bool)',
  'exec(address,uint256,bytes)',
] as const;

const SELECTORS: ReadonlySet<string> = new Set(EXECUTE_SIGNATURES.map((s) => toFunctionSelector(`function ${s}`)));

export interface ExecuteCall {
  readonly target: Address;
  readonly callData: Hex;
}

/** the 32-byte word at byte `at` of `hex` (no 0x), as a bigint; null past the end */
function word(hex: string, at: number): bigint | null {
  const s = hex.slice(at * 2, at * 2 + 64);
  return s.length === 64 ? BigInt(`0x${s}`) : null;
}

/** The call an account's execute-like call data makes; null for any other call data or one that does not decode. */
export function executeCallOf(callData: Hex): ExecuteCall | null {
  if (callData.length < 10 || !SELECTORS.has(callData.slice(0, 10).toLowerCase())) return null;
  const args = callData.slice(10).toLowerCase();
  const target = word(args, 0);
  const offset = word(args, 64);
  if (target === null || word(args, 32) === null || offset === null || target >> 160n !== 0n) return null;
  if (offset > BigInt(args.length / 2)) return null;
  const length = word(args, Number(offset));
  if (length === null) return null;
  const start = (Number(offset) + 32) * 2;
  if (length > BigInt((args.length - start) / 2)) return null;
  return {
    target: `0x${args.slice(24, 64)}` as Address,
    callData: `0x${args.slice(start, start + Number(length) * 2)}` as Hex,
  };
}
