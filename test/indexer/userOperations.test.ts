/**
 * ERC-4337 on anvil, indexed by scoutkit's indexer: @account-abstraction/contracts' own
 * EntryPoint (its 0.8.0 artifacts) placed at the canonical v0.7 address, a SimpleAccountFactory,
 * two accounts created by their first user operation, an operation that reverts, three bundles
 * (two sent to the EntryPoint by two beneficiaries, one through a forwarding contract: an
 * internal call found in the trace) and a bundle that reverts as a whole. Every stored operation
 * is checked against the EntryPoint's UserOperationEvent and the handleOps input that carried
 * it; then the operations are emptied (a store indexed before they were derived) and the
 * indexer's backfill stores them again. On every store, one anvil.
 */
import { createRequire } from 'node:module';
import t from 'tap';
import { decodeEventLog, encodeAbiParameters, encodeFunctionData, getContractAddress, parseEther } from 'viem';
import type { Abi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startAnvil } from '../../demo/anvil.ts';
import { parseIndexArgs } from '../../host/commands/index.ts';
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import { ENTRY_POINT_V07 } from '../../lib/userops/index.ts';
import { storeFactories } from '../support/stores.ts';
import { DEV_ACCOUNT0, indexerFor, rpc, toHex } from './helpers.ts';

t.setTimeout(120_000);

interface Artifact {
  readonly abi: Abi;
  readonly bytecode: Hex;
}
const require = createRequire(import.meta.url);
const artifact = (name: string): Artifact => require(`@account-abstraction/contracts/artifacts/${name}.json`) as Artifact;
const ENTRY_POINT = artifact('EntryPoint');
const FACTORY = artifact('SimpleAccountFactory');
const ACCOUNT = artifact('SimpleAccount');

const EP = ENTRY_POINT_V07;
const OWNER_A = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const OWNER_B = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const BENEFICIARY_1: Address = '0x00000000000000000000000000000000000b0b01';
const BENEFICIARY_2: Address = '0x00000000000000000000000000000000000b0b02';
const RECEIVER: Address = '0x000000000000000000000000000000000000c0de';
const REVERTER: Address = '0x000000000000000000000000000000000000dead';
const FORWARDER: Address = '0x000000000000000000000000000000000000f0f0';
const LOGGER: Address = '0x000000000000000000000000000000000000106e';

interface Receipt {
  readonly transactionHash: Hash;
  readonly blockNumber: Hex;
  readonly contractAddress: Address | null;
  readonly status: Hex;
  readonly logs: readonly { address: Address; topics: Hex[]; data: Hex; logIndex: Hex }[];
}

async function send(url: string, tx: Record<string, unknown>): Promise<Receipt> {
  const hash = (await rpc(url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT0, gas: toHex(15_000_000), ...tx }])) as Hash;
  for (let i = 0; i < 800; i++) {
    const receipt = (await rpc(url, 'eth_getTransactionReceipt', [hash])) as Receipt | null;
    if (receipt !== null) return receipt;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${hash} not mined`);
}

const pack = (hi: bigint, lo: bigint): Hex => `0x${hi.toString(16).padStart(32, '0')}${lo.toString(16).padStart(32, '0')}`;

interface PackedOp {
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

/** the EntryPoint's runtime at its canonical v0.7 address, its SenderCreator told about the move */
async function placeEntryPoint(url: string): Promise<void> {
  const deployed = await send(url, { data: ENTRY_POINT.bytecode });
  if (deployed.status !== '0x1') throw new Error('the EntryPoint did not deploy');
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

/** the chain: accounts, bundles and the reverted one, as sent */
async function scenario(url: string) {
  await placeEntryPoint(url);
  const deployedFactory = await send(url, { data: `${FACTORY.bytecode}${encodeAbiParameters([{ type: 'address' }], [EP]).slice(2)}` });
  if (deployedFactory.status !== '0x1') throw new Error('the factory did not deploy');
  const accountFactory = (deployedFactory.contractAddress ?? '0x') as Address;
  const call = async (to: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<Hex> =>
    (await rpc(url, 'eth_call', [{ to, data: encodeFunctionData({ abi, functionName, args }) }, 'latest'])) as Hex;
  const accountOf = async (owner: Address): Promise<Address> => `0x${(await call(accountFactory, FACTORY.abi, 'getAddress', [owner, 0n])).slice(26)}` as Address;
  const [accountA, accountB] = [await accountOf(OWNER_A.address), await accountOf(OWNER_B.address)];
  for (const a of [accountA, accountB]) await send(url, { to: a, value: toHex(parseEther('1')) });

  const execute = (to: Address, value: bigint, data: Hex): Hex => encodeFunctionData({ abi: ACCOUNT.abi, functionName: 'execute', args: [to, value, data] });
  const initCodeOf = (owner: Address): Hex => `${accountFactory}${encodeFunctionData({ abi: FACTORY.abi, functionName: 'createAccount', args: [owner, 0n] }).slice(2)}` as Hex;
  const signed = async (owner: typeof OWNER_A, op: Omit<PackedOp, 'signature'>, badSignature = false): Promise<PackedOp> => {
    const hash = (await call(EP, ENTRY_POINT.abi, 'getUserOpHash', [{ ...op, signature: '0x' }])) as Hash;
    const signature = badSignature ? await OWNER_B.sign({ hash }) : await owner.sign({ hash });
    return { ...op, signature };
  };
  const base = (sender: Address, nonce: bigint, callData: Hex, initCode: Hex = '0x') => ({
    sender,
    nonce,
    initCode,
    callData,
    accountGasLimits: pack(600_000n, 200_000n),
    preVerificationGas: 50_000n,
    gasFees: pack(1_000_000_000n, 20_000_000_000n),
    paymasterAndData: '0x' as Hex,
  });
  const handleOps = (ops: readonly PackedOp[], beneficiary: Address): Hex => encodeFunctionData({ abi: ENTRY_POINT.abi, functionName: 'handleOps', args: [ops, beneficiary] });

  // bundle 1: account A created by its first operation, which pays RECEIVER
  const a0 = await signed(OWNER_A, base(accountA, 0n, execute(RECEIVER, 1000n, '0x'), initCodeOf(OWNER_A.address)));
  const tx1 = await send(url, { to: EP, data: handleOps([a0], BENEFICIARY_1) });
  // bundle 2, another beneficiary: account B created; A's second operation reverts in its call
  const b0 = await signed(OWNER_B, base(accountB, 0n, execute(RECEIVER, 1n, '0x'), initCodeOf(OWNER_B.address)));
  const a1 = await signed(OWNER_A, base(accountA, 1n, execute(REVERTER, 0n, '0x12345678')));
  const tx2 = await send(url, { to: EP, data: handleOps([b0, a1], BENEFICIARY_2) });
  // a bundle that reverts as a whole (a signature of the wrong owner: AA24)
  const bad = await signed(OWNER_A, base(accountA, 2n, execute(RECEIVER, 1n, '0x')), true);
  const reverted = await send(url, { to: EP, data: handleOps([bad], BENEFICIARY_1) });
  // bundle 3: through a forwarding contract (an internal call)
  const a2 = await signed(OWNER_A, base(accountA, 2n, execute(LOGGER, 0n, '0x')));
  const tx3 = await send(url, { to: FORWARDER, data: handleOps([a2], BENEFICIARY_1) });
  const statuses = [tx1, tx2, reverted, tx3].map((r) => r.status).join();
  if (statuses !== '0x1,0x1,0x0,0x1') throw new Error(`the bundles did not run as meant: ${statuses}`);

  const sent = [
    { receipt: tx1, ops: [a0], beneficiary: BENEFICIARY_1 },
    { receipt: tx2, ops: [b0, a1], beneficiary: BENEFICIARY_2 },
    { receipt: tx3, ops: [a2], beneficiary: BENEFICIARY_1 },
  ];
  return { sent, reverted, tx1, tx2, tx3, accountA, accountB, accountFactory };
}

const anvil = await startAnvil();
t.teardown(() => anvil.stop());
const { sent, reverted, tx1, tx2, tx3, accountA, accountB, accountFactory } = await scenario(anvil.url);

for (const factory of await storeFactories()) {
  t.test(`${factory.name}: user operations indexed as the EntryPoint ran them`, async (t) => {
    const ds = await factory.open();
    t.teardown(() => ds.close());
    await indexerFor(anvil.url, ds).run({ to: Number(tx3.blockNumber) });

    const stored = await ds.listUserOperations({}, { after: null, limit: 50, order: 'desc' });
    t.equal(stored.length, 4, 'four operations, none from the reverted bundle');
    t.same(await ds.listUserOperations({ transactionHash: reverted.transactionHash }, { after: null, limit: 50, order: 'desc' }), []);
    for (const { receipt, ops, beneficiary } of sent) {
      const events = receipt.logs
        .filter((l) => l.address.toLowerCase() === EP)
        .map((l) => decodeEventLog({ abi: ENTRY_POINT.abi, topics: l.topics as [Hex, ...Hex[]], data: l.data }))
        .flatMap((e) => (e.eventName === 'UserOperationEvent' ? [e.args as unknown as { userOpHash: Hash; sender: Address; nonce: bigint; success: boolean; actualGasCost: bigint; actualGasUsed: bigint }] : []));
      t.equal(events.length, ops.length, `${receipt.transactionHash}: one event per operation`);
      for (const [index, op] of ops.entries()) {
        const e = events[index];
        if (e === undefined) continue;
        const got = await ds.getUserOperation(e.userOpHash.toLowerCase() as Hash);
        t.match(
          got,
          {
            sender: op.sender.toLowerCase(),
            nonce: op.nonce,
            initCode: op.initCode.toLowerCase(),
            callData: op.callData.toLowerCase(),
            signature: op.signature.toLowerCase(),
            callGasLimit: 200_000n,
            verificationGasLimit: 600_000n,
            preVerificationGas: 50_000n,
            maxPriorityFeePerGas: 1_000_000_000n,
            maxFeePerGas: 20_000_000_000n,
            gas: 850_000n,
            entryPoint: EP,
            entryPointVersion: 'v0.7',
            transactionHash: receipt.transactionHash,
            blockNumber: Number(receipt.blockNumber),
            bundler: beneficiary,
            bundleIndex: 0,
            index,
            factory: op.initCode === '0x' ? null : accountFactory.toLowerCase(),
            paymaster: null,
            status: e.success,
            gasUsed: e.actualGasUsed,
            actualGasCost: e.actualGasCost,
            gasPrice: e.actualGasCost / e.actualGasUsed,
            // each account paid its prefund from its balance into the EntryPoint (Deposited for it)
            sponsorType: 'wallet_deposit',
            aggregator: null,
          },
          `${receipt.transactionHash} operation ${index}`,
        );
        if (got !== null && got.status) t.equal(got.revertReason, null);
      }
    }
    const failed = await ds.getUserOperation(stored.find((o) => o.nonce === 1n && o.sender === accountA.toLowerCase())?.hash ?? '0x');
    t.match(failed, { status: false, revertReason: '0xdeadbeef', userLogsCount: 0 }, "A's reverted call: its revert data");
    t.same(
      (await ds.listUserOperations({ factory: accountFactory.toLowerCase() as Address }, { after: null, limit: 50, order: 'asc' })).map((o) => o.sender),
      [accountA.toLowerCase(), accountB.toLowerCase()],
      'the two operations that created their accounts',
    );
    const bundles = await ds.listUserOperationBundles({}, { after: null, limit: 50, order: 'asc' });
    t.same(
      bundles.map((b) => [b.transactionHash, b.bundler, b.totalOps]),
      [
        [tx1.transactionHash, BENEFICIARY_1, 1],
        [tx2.transactionHash, BENEFICIARY_2, 2],
        [tx3.transactionHash, BENEFICIARY_1, 1],
      ],
      'three bundles, their beneficiaries and counts',
    );

    const logged = tx3.logs.find((l) => l.address.toLowerCase() === LOGGER);
    t.match(await ds.getUserOperation(a2Hash(stored, accountA)), { userLogsStartIndex: Number(logged?.logIndex), userLogsCount: 1 }, 'its own log, between the EntryPoint’s');

    const parties = async () =>
      Promise.all((['bundler', 'factory', 'sender'] as const).map(async (role) => (await ds.listUserOperationParties(role, { after: null, limit: 50, order: 'desc' })).map((p) => [p.address, p.totalOps, p.totalBundles])));
    const counted = [
      [
        [BENEFICIARY_1, 2, 2],
        [BENEFICIARY_2, 2, 1],
      ],
      [[accountFactory.toLowerCase(), 2, 0]],
      [
        [accountA.toLowerCase(), 3, 0],
        [accountB.toLowerCase(), 1, 0],
      ],
    ];
    t.same(await parties(), counted, 'bundlers by bundles, the factory by the accounts it created, accounts by operations');

    // a store indexed before user operations were derived: the backfill re-reads the blocks
    const everything = await ds.listUserOperations({}, { after: null, limit: 50, order: 'desc' });
    for (const tx of [tx1, tx2, tx3]) {
      const block = await ds.getBlock({ number: Number(tx.blockNumber) });
      if (block !== null) await ds.writeUserOperations?.(block.hash, []);
    }
    t.same(await ds.listUserOperations({}, { after: null, limit: 50, order: 'desc' }), [], 'emptied, as before user operations');
    const logs: string[] = [];
    await indexerFor(anvil.url, ds, { logs }).run({ to: Number(tx3.blockNumber), userOperationsBackfill: true });
    t.same(await ds.listUserOperations({}, { after: null, limit: 50, order: 'desc' }), everything, 'the backfill stores them again, the same');
    t.ok(logs.some((l) => l.includes('user operations: 4 written for 3 block(s)')), 'and says what it did');
    t.same(await parties(), counted, 'and counts them again');

    // a reorg across the last bundle takes its operation away
    await ds.rollbackAbove(Number(tx3.blockNumber) - 1);
    t.equal(await ds.getUserOperation(a2Hash(stored, accountA)), null, 'rolled back with its block');
  });
}

function a2Hash(stored: readonly { sender: Address; nonce: bigint; hash: Hash }[], accountA: Address): Hash {
  return stored.find((o) => o.sender === accountA.toLowerCase() && o.nonce === 2n)?.hash ?? '0x';
}

t.test('scoutkit index: --entry-point and --user-ops-backfill', async (t) => {
  const base = ['--rpc', anvil.url, '--db', 'memory:'];
  const mine = '0x000000000000000000000000000000000000E9E9';
  t.match(parseIndexArgs([...base, '--entry-point', `${mine}=v0.8`, '--user-ops-backfill']), { entryPoints: { [mine.toLowerCase()]: 'v0.8' }, userOpsBackfill: true });
  t.notOk('entryPoints' in parseIndexArgs(base), 'none given: the canonical three alone');
  t.throws(() => parseIndexArgs([...base, '--entry-point', `${mine}=v0.9`]), /--entry-point: expected <address>=<version> \(version v0\.6, v0\.7, v0\.8\), got/);
  t.throws(() => parseIndexArgs([...base, '--entry-point', '0x1234=v0.7']), /--entry-point/);
});
