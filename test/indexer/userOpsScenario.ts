/**
 * ERC-4337 on anvil, shared by the user-operation indexer tests: @account-abstraction/contracts'
 * own EntryPoint (its 0.8.0 artifacts) placed at the canonical v0.7 address, a
 * SimpleAccountFactory, and a paymaster that sponsors every operation — the package ships no
 * concrete paymaster in its artifacts, so AcceptAllPaymaster (its own BasePaymaster, validation
 * answering an empty context and 0) is compiled from the package's sources with solc-js, once
 * per process. Operations are signed by their owners' local keys over the EntryPoint's
 * getUserOpHash; what Blockscout's user-ops-indexer derives from a bundle's receipt (the
 * sponsor type) is worked out here from the receipt, for the checks.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { decodeEventLog, encodeAbiParameters, encodeFunctionData, getContractAddress } from 'viem';
import type { Abi, Address as ViemAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import { address, EMPTY_HEX, hex } from '../../lib/domain/hex.ts';
import { ENTRY_POINT_V07 } from '../../lib/userops/index.ts';
import { DEV_ACCOUNT0, rpc, toHex } from './helpers.ts';

export interface Artifact {
  readonly abi: Abi;
  readonly bytecode: Hex;
}
const require = createRequire(import.meta.url);
const artifact = (name: string): Artifact => require(`@account-abstraction/contracts/artifacts/${name}.json`) as Artifact;
export const ENTRY_POINT = artifact('EntryPoint');
export const FACTORY = artifact('SimpleAccountFactory');
export const ACCOUNT = artifact('SimpleAccount');

export const EP = ENTRY_POINT_V07;
export const OWNER_A = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
export const OWNER_B = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
export const OWNER_C = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
export const BENEFICIARY_1 = address('0x00000000000000000000000000000000000b0b01');
export const BENEFICIARY_2 = address('0x00000000000000000000000000000000000b0b02');
export const RECEIVER = address('0x000000000000000000000000000000000000c0de');
export const REVERTER = address('0x000000000000000000000000000000000000dead');
export const FORWARDER = address('0x000000000000000000000000000000000000f0f0');
/** accepts value, emits one LOG0 */
export const LOGGER = address('0x000000000000000000000000000000000000106e');

export interface Receipt {
  readonly transactionHash: Hash;
  readonly blockNumber: Hex;
  readonly blockHash: Hash;
  readonly contractAddress: Address | null;
  readonly status: Hex;
  readonly logs: readonly { address: Address; topics: Hex[]; data: Hex; logIndex: Hex }[];
}
/** a receipt's status when the transaction succeeded */
const SUCCESS = hex('0x1');

export async function receiptOf(url: string, hash: Hash): Promise<Receipt> {
  for (let i = 0; i < 800; i++) {
    const receipt = (await rpc(url, 'eth_getTransactionReceipt', [hash])) as Receipt | null;
    if (receipt !== null) return receipt;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${hash} not mined`);
}

export async function send(url: string, tx: Record<string, unknown>): Promise<Receipt> {
  const hash = (await rpc(url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT0, gas: toHex(15_000_000), ...tx }])) as Hash;
  return receiptOf(url, hash);
}

export const pack = (hi: bigint, lo: bigint): Hex => hex(`0x${hi.toString(16).padStart(32, '0')}${lo.toString(16).padStart(32, '0')}`);

export interface PackedOp {
  sender: Address;
  nonce: bigint;
  initCode: Hex;
  callData: Hex;
  accountGasLimits: Hex;
  preVerificationGas: bigint;
  gasFees: Hex;
  paymasterAndData: Hex;
  signature: Hex;
}

/** the limits every operation here carries: verification 600 000, call 200 000, pre-verification 50 000; a paymaster's 100 000 + 50 000 */
export const GAS_WITHOUT_PAYMASTER = 850_000n;
export const GAS_WITH_PAYMASTER = 1_000_000n;

const PAYMASTER_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
import "@account-abstraction/contracts/core/BasePaymaster.sol";

/// sponsors every operation: no signature, no context (so no postOp)
contract AcceptAllPaymaster is BasePaymaster {
    constructor(IEntryPoint ep) BasePaymaster(ep) {}

    function _validatePaymasterUserOp(PackedUserOperation calldata, bytes32, uint256) internal pure override returns (bytes memory, uint256) {
        return ("", 0);
    }
}
`;

let compiled: Artifact | null = null;
/** AcceptAllPaymaster, compiled from the package's BasePaymaster with solc-js (once) */
export function paymasterArtifact(): Artifact {
  if (compiled !== null) return compiled;
  const solc = require('solc') as { compile(input: string, callbacks: { import(path: string): { contents: string } | { error: string } }): string };
  const input = {
    language: 'Solidity',
    sources: { 'AcceptAllPaymaster.sol': { content: PAYMASTER_SOURCE } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { AcceptAllPaymaster: ['abi', 'evm.bytecode.object'] } } },
  };
  const readImport = (path: string) => {
    try {
      return { contents: readFileSync(require.resolve(path), 'utf8') };
    } catch (e) {
      return { error: String(e) };
    }
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: readImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  const contract = out.contracts?.['AcceptAllPaymaster.sol']?.['AcceptAllPaymaster'];
  if (errors.length > 0 || contract === undefined) throw new Error(`AcceptAllPaymaster did not compile: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  compiled = { abi: contract.abi, bytecode: hex(`0x${contract.evm.bytecode.object}`) };
  return compiled;
}

/** the EntryPoint's runtime at its canonical v0.7 address, its SenderCreator told about the move; the small contracts */
export async function placeEntryPoint(url: string): Promise<void> {
  const deployed = await send(url, { data: ENTRY_POINT.bytecode });
  if (deployed.status !== SUCCESS) throw new Error('the EntryPoint did not deploy');
  const original = deployed.contractAddress as Address;
  const senderCreator = getContractAddress({ from: original, nonce: 1n }).toLowerCase();
  await rpc(url, 'anvil_setCode', [EP, await rpc(url, 'eth_getCode', [original, 'latest'])]);
  // SenderCreator keeps its EntryPoint as an immutable in its runtime: point it at the new place
  const creatorCode = (await rpc(url, 'eth_getCode', [senderCreator, 'latest'])) as string;
  await rpc(url, 'anvil_setCode', [senderCreator, creatorCode.split(original.slice(2).toLowerCase()).join(EP.slice(2))]);
  await rpc(url, 'anvil_setCode', [REVERTER, '0x63deadbeef5f526004601cfd']); // revert with 0xdeadbeef
  await rpc(url, 'anvil_setCode', [LOGGER, '0x5f5fa000']); // LOG0 of nothing
  // calldata forwarded to the EntryPoint, reverting when the call does
  await rpc(url, 'anvil_setCode', [FORWARDER, `0x365f5f375f5f365f5f73${EP.slice(2)}5af1602657 5f5ffd5b00`.replace(' ', '')]);
}

export type Owner = typeof OWNER_A;

/** The EntryPoint placed, a factory and a funded paymaster deployed; helpers to build, sign and bundle operations. */
export async function deployUserOps(url: string) {
  await placeEntryPoint(url);
  const deployedFactory = await send(url, { data: `${FACTORY.bytecode}${encodeAbiParameters([{ type: 'address' }], [EP]).slice(2)}` });
  if (deployedFactory.status !== SUCCESS) throw new Error('the factory did not deploy');
  const accountFactory = (deployedFactory.contractAddress ?? '0x').toLowerCase() as Address;
  const pm = paymasterArtifact();
  const deployedPaymaster = await send(url, { data: `${pm.bytecode}${encodeAbiParameters([{ type: 'address' }], [EP]).slice(2)}` });
  if (deployedPaymaster.status !== SUCCESS) throw new Error('the paymaster did not deploy');
  const paymaster = (deployedPaymaster.contractAddress ?? '0x').toLowerCase() as Address;
  const depositTo = (account: Address): Hex => hex(encodeFunctionData({ abi: ENTRY_POINT.abi, functionName: 'depositTo', args: [account] }));
  if ((await send(url, { to: EP, data: depositTo(paymaster), value: toHex(10n ** 18n) })).status !== SUCCESS) throw new Error('the paymaster’s deposit failed');

  const call = async (to: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<Hex> =>
    (await rpc(url, 'eth_call', [{ to, data: encodeFunctionData({ abi, functionName, args }) }, 'latest'])) as Hex;
  const accountOf = async (owner: ViemAddress): Promise<Address> => `0x${(await call(accountFactory, FACTORY.abi, 'getAddress', [owner, 0n])).slice(26)}` as Address;
  const execute = (to: Address, value: bigint, data: Hex): Hex => hex(encodeFunctionData({ abi: ACCOUNT.abi, functionName: 'execute', args: [to, value, data] }));
  const initCodeOf = (owner: ViemAddress): Hex => `${accountFactory}${encodeFunctionData({ abi: FACTORY.abi, functionName: 'createAccount', args: [owner, 0n] }).slice(2)}` as Hex;
  const signed = async (owner: Owner, op: Omit<PackedOp, 'signature'>, badSignature = false): Promise<PackedOp> => {
    const hash = (await call(EP, ENTRY_POINT.abi, 'getUserOpHash', [{ ...op, signature: '0x' }])) as Hash;
    const signature = badSignature ? await OWNER_B.sign({ hash }) : await owner.sign({ hash });
    return { ...op, signature: hex(signature) };
  };
  const base = (sender: Address, nonce: bigint, callData: Hex, initCode: Hex = EMPTY_HEX, sponsored = false): Omit<PackedOp, 'signature'> => ({
    sender,
    nonce,
    initCode,
    callData,
    accountGasLimits: pack(600_000n, 200_000n),
    preVerificationGas: 50_000n,
    gasFees: pack(1_000_000_000n, 20_000_000_000n),
    paymasterAndData: sponsored ? hex(`${paymaster}${pack(100_000n, 50_000n).slice(2)}`) : EMPTY_HEX,
  });
  const handleOps = (ops: readonly PackedOp[], beneficiary: Address): Hex =>
    hex(encodeFunctionData({ abi: ENTRY_POINT.abi, functionName: 'handleOps', args: [ops, beneficiary] }));
  return { accountFactory, paymaster, accountOf, execute, initCodeOf, signed, base, handleOps, depositTo };
}

export interface OperationEvent {
  readonly userOpHash: Hash;
  readonly sender: Address;
  readonly paymaster: Address;
  readonly nonce: bigint;
  readonly success: boolean;
  readonly actualGasCost: bigint;
  readonly actualGasUsed: bigint;
}

const entryPointEvents = (receipt: Receipt) =>
  receipt.logs.filter((l) => l.address.toLowerCase() === EP).map((l) => decodeEventLog({ abi: ENTRY_POINT.abi, topics: l.topics as [Hex, ...Hex[]], data: l.data }));

/** the receipt's UserOperationEvents, in order */
export const operationEventsOf = (receipt: Receipt): OperationEvent[] =>
  entryPointEvents(receipt).flatMap((e) => (e.eventName === 'UserOperationEvent' ? [e.args as unknown as OperationEvent] : []));

/** the receipt's AccountDeployed events (an account created by an operation's initCode), in order */
export const deploymentsOf = (receipt: Receipt): { readonly userOpHash: Hash; readonly sender: Address; readonly factory: Address }[] =>
  entryPointEvents(receipt).flatMap((e) => (e.eventName === 'AccountDeployed' ? [e.args as unknown as { userOpHash: Hash; sender: Address; factory: Address }] : []));

/** the paymaster of paymasterAndData (its first 20 bytes), as Blockscout takes it */
export const paymasterOf = (op: PackedOp): Address | null => (op.paymasterAndData.length >= 42 ? (op.paymasterAndData.slice(0, 42).toLowerCase() as Address) : null);

/**
 * The sponsor type as Blockscout's user-ops-indexer derives it: the accounts of every EntryPoint
 * Deposited event in the transaction's receipt; without a paymaster wallet_deposit when the
 * sender is among them, else wallet_balance; with one paymaster_hybrid when the paymaster is
 * among them, else paymaster_sponsor.
 */
export function sponsorTypeOf(receipt: Receipt, op: PackedOp): string {
  const deposited = new Set(entryPointEvents(receipt).flatMap((e) => (e.eventName === 'Deposited' ? [String((e.args as unknown as { account: Address }).account).toLowerCase()] : [])));
  const paymaster = paymasterOf(op);
  if (paymaster === null) return deposited.has(op.sender.toLowerCase()) ? 'wallet_deposit' : 'wallet_balance';
  return deposited.has(paymaster) ? 'paymaster_hybrid' : 'paymaster_sponsor';
}
