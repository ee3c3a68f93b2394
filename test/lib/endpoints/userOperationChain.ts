/**
 * A chain written by code for the account-abstraction endpoint tests: 3 blocks, 7 user
 * operations of two EntryPoints (v0.6 and v0.7), two bundlers, a paymaster, a factory creating
 * an account, a reverted operation, a transaction carrying two bundles, call data of an
 * account's `execute` (a token transfer inside). Records built as the indexer stores them.
 */
import { encodeFunctionData, parseAbi } from 'viem';
import type { BlockRecord, Hash, Hex, TransactionRecord } from '../../../lib/domain/records.ts';
import { EMPTY_HEX, hex } from '../../../lib/domain/hex.ts';
import type { UserOperationRecord } from '../../../lib/domain/userOperations.ts';
import type { DataSink } from '../../../lib/ports.ts';
import { ENTRY_POINT_V06, ENTRY_POINT_V07 } from '../../../lib/userops/index.ts';
import { addr, block, bundle, h32, tx } from '../../ports/records.ts';

export const ACCOUNT_1 = addr(0xacc1);
export const ACCOUNT_2 = addr(0xacc2);
export const BUNDLER_X = addr(0xb0b1);
export const BUNDLER_Y = addr(0xb0b2);
export const PAYMASTER = addr(0x9a9a);
export const FACTORY = addr(0xfafa);
export const TOKEN = addr(0x7070);
export const FRIEND = addr(0xf00d);

const abi = parseAbi(['function execute(address dest, uint256 value, bytes func)', 'function transfer(address to, uint256 value) returns (bool)']);
export const INNER: Hex = hex(encodeFunctionData({ abi, functionName: 'transfer', args: [FRIEND, 5n] }));
export const EXECUTE: Hex = hex(encodeFunctionData({ abi, functionName: 'execute', args: [TOKEN, 0n, INNER] }));

export function userOp(t: TransactionRecord, tag: string, o: Partial<UserOperationRecord> = {}): UserOperationRecord {
  return {
    hash: h32(tag),
    sender: ACCOUNT_1,
    nonce: 0n,
    initCode: EMPTY_HEX,
    callData: EXECUTE,
    callGasLimit: 100_000n,
    verificationGasLimit: 200_000n,
    preVerificationGas: 50_000n,
    maxFeePerGas: 3_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    paymasterAndData: EMPTY_HEX,
    signature: hex('0x01'),
    aggregator: null,
    aggregatorSignature: null,
    entryPoint: ENTRY_POINT_V07,
    entryPointVersion: 'v0.7',
    transactionHash: t.hash,
    transactionIndex: t.index ?? 0,
    blockNumber: t.blockNumber ?? 0,
    blockHash: t.blockHash ?? h32('none'),
    timestamp: t.timestamp ?? 0,
    bundler: BUNDLER_X,
    bundleIndex: 0,
    index: 0,
    factory: null,
    paymaster: null,
    status: true,
    revertReason: null,
    gas: 350_000n,
    gasPrice: 7n,
    gasUsed: 100_001n,
    actualGasCost: 700_010n,
    sponsorType: 'wallet_balance',
    userLogsStartIndex: 0,
    userLogsCount: 0,
    ...o,
  };
}

export interface UserOperationChain {
  readonly blocks: readonly BlockRecord[];
  /** every operation written, in the list's order (block DESC, hash DESC) */
  readonly ops: readonly UserOperationRecord[];
  readonly byTag: Readonly<Record<string, UserOperationRecord>>;
  /** the transaction of block 2 holding two bundles */
  readonly twoBundles: Hash;
}

export async function writeUserOperationChain(store: DataSink): Promise<UserOperationChain> {
  const b1 = block(1);
  const b2 = block(2);
  const b3 = block(3);
  const t1 = tx(b1, 0, { to: ENTRY_POINT_V07 });
  const t2 = tx(b2, 0, { to: ENTRY_POINT_V07 });
  const t3 = tx(b2, 1, { to: ENTRY_POINT_V06 });
  const t4 = tx(b3, 0, { to: ENTRY_POINT_V07 });
  const initCode: Hex = hex(`${FACTORY}5fbfb9cf`);
  const pmData: Hex = hex(`${PAYMASTER}${'00'.repeat(15)}0100${'00'.repeat(15)}02`);
  const byTag: Record<string, UserOperationRecord> = {
    create: userOp(t1, 'create', { initCode, factory: FACTORY, sponsorType: 'wallet_deposit', userLogsStartIndex: 2, userLogsCount: 1 }),
    second: userOp(t1, 'second', { sender: ACCOUNT_2, index: 1, nonce: 2n ** 64n + 1n }),
    paid: userOp(t2, 'paid', { nonce: 1n, paymasterAndData: pmData, paymaster: PAYMASTER, sponsorType: 'paymaster_sponsor', bundler: BUNDLER_Y }),
    reverted: userOp(t2, 'reverted', { sender: ACCOUNT_2, nonce: 1n, status: false, revertReason: hex('0x08c379a0'), bundleIndex: 1, bundler: BUNDLER_Y }),
    v06: userOp(t3, 'v06', { entryPoint: ENTRY_POINT_V06, entryPointVersion: 'v0.6', nonce: 2n, callData: hex('0xdeadbeef'), aggregator: addr(0xa99), aggregatorSignature: hex('0x02') }),
    later: userOp(t4, 'later', { nonce: 3n }),
    later2: userOp(t4, 'later2', { sender: ACCOUNT_2, nonce: 2n, index: 1 }),
  };
  const opsOf = (t: TransactionRecord) => Object.values(byTag).filter((o) => o.transactionHash === t.hash);
  await store.writeBlocks([
    bundle(b1, { transactions: [t1], userOperations: opsOf(t1) }),
    bundle(b2, { transactions: [t2, t3], userOperations: [...opsOf(t2), ...opsOf(t3)] }),
    bundle(b3, { transactions: [t4], userOperations: opsOf(t4) }),
  ]);
  const ops = Object.values(byTag).sort((a, b) => b.blockNumber - a.blockNumber || (a.hash < b.hash ? 1 : a.hash > b.hash ? -1 : 0));
  return { blocks: [b1, b2, b3], ops, byTag, twoBundles: t2.hash };
}

