/**
 * ERC-4337 on anvil, indexed by scoutkit's indexer (the chain of userOpsScenario.ts):
 * @account-abstraction/contracts' own EntryPoint at the canonical v0.7 address, a
 * SimpleAccountFactory, three accounts created by their first user operation (one of them
 * sponsored by a paymaster and executing a call with value and a log in the same operation), an
 * operation that reverts, five bundles (sent to the EntryPoint by two beneficiaries, one through
 * a forwarding contract: an internal call found in the trace), each of Blockscout's four sponsor
 * types, and a bundle that reverts as a whole. Every stored operation is checked against the
 * EntryPoint's UserOperationEvent and the handleOps input that carried it; the paymaster, the
 * create-and-execute operation and the accounts' list (against AccountDeployed) through the
 * endpoints too; then the operations are emptied (a store indexed before they were derived)
 * and the indexer's backfill stores them again. On every store, one anvil.
 */
import t from 'tap';
import type { Test } from 'tap';
import { encodeFunctionData, getAddress, parseEther } from 'viem';
import { startAnvil } from '../../demo/anvil.ts';
import { parseIndexArgs } from '../../host/commands/index.ts';
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import { createExplorer, EMPTY_HEX, hash, hex, toJson } from '../../lib/index.ts';
import type { Explorer } from '../../lib/index.ts';
import { officialSpecs, validateResponse } from '../support/openapi.ts';
import { storeFactories } from '../support/stores.ts';
import { indexerFor, toHex } from './helpers.ts';
import type { PackedOp } from './userOpsScenario.ts';
import {
  BENEFICIARY_1,
  BENEFICIARY_2,
  deploymentsOf,
  deployUserOps,
  ENTRY_POINT,
  EP,
  FORWARDER,
  GAS_WITH_PAYMASTER,
  GAS_WITHOUT_PAYMASTER,
  LOGGER,
  operationEventsOf,
  OWNER_A,
  OWNER_B,
  OWNER_C,
  paymasterOf,
  RECEIVER,
  REVERTER,
  send,
  sponsorTypeOf,
} from './userOpsScenario.ts';

const specs = await officialSpecs();
const P = '/api/v2/proxy/account-abstraction';
/** the inner call of C's first operation (a call with value to the logger) */
const C_INNER: Hex = hex('0xc0ffee00');

/** the chain: accounts, bundles and the reverted one, as sent */
async function scenario(url: string) {
  const { accountFactory, paymaster, accountOf, execute, initCodeOf, signed, base, handleOps, depositTo } = await deployUserOps(url);
  const [accountA, accountB, accountC] = [await accountOf(OWNER_A.address), await accountOf(OWNER_B.address), await accountOf(OWNER_C.address)];
  for (const a of [accountA, accountB, accountC]) await send(url, { to: a, value: toHex(parseEther('1')) });

  // bundle 1: account A created by its first operation, which pays RECEIVER
  const a0 = await signed(OWNER_A, base(accountA, 0n, execute(RECEIVER, 1000n, EMPTY_HEX), initCodeOf(OWNER_A.address)));
  const tx1 = await send(url, { to: EP, data: handleOps([a0], BENEFICIARY_1) });
  // bundle 2, another beneficiary: account B created; A's second operation reverts in its call
  const b0 = await signed(OWNER_B, base(accountB, 0n, execute(RECEIVER, 1n, EMPTY_HEX), initCodeOf(OWNER_B.address)));
  const a1 = await signed(OWNER_A, base(accountA, 1n, execute(REVERTER, 0n, hex('0x12345678'))));
  const tx2 = await send(url, { to: EP, data: handleOps([b0, a1], BENEFICIARY_2) });
  // a bundle that reverts as a whole (a signature of the wrong owner: AA24)
  const bad = await signed(OWNER_A, base(accountA, 2n, execute(RECEIVER, 1n, EMPTY_HEX)), true);
  const reverted = await send(url, { to: EP, data: handleOps([bad], BENEFICIARY_1) });
  // bundle 3: through a forwarding contract (an internal call)
  const a2 = await signed(OWNER_A, base(accountA, 2n, execute(LOGGER, 0n, EMPTY_HEX)));
  const tx3 = await send(url, { to: FORWARDER, data: handleOps([a2], BENEFICIARY_1) });
  // bundle 4: account C created and calling in one operation (value and a log), the paymaster paying
  const c0 = await signed(OWNER_C, base(accountC, 0n, execute(LOGGER, 7n, C_INNER), initCodeOf(OWNER_C.address), true));
  const tx4 = await send(url, { to: EP, data: handleOps([c0], BENEFICIARY_2) });
  // bundle 5: A through the paymaster, topping up the paymaster's deposit (Deposited for it: hybrid);
  // B from the deposit it already holds (no Deposited for it: the wallet's balance)
  await send(url, { to: EP, data: depositTo(accountB), value: toHex(parseEther('0.1')) });
  const a3 = await signed(OWNER_A, base(accountA, 3n, execute(EP, 1000n, depositTo(paymaster)), EMPTY_HEX, true));
  const b1 = await signed(OWNER_B, base(accountB, 1n, execute(RECEIVER, 2n, EMPTY_HEX)));
  const tx5 = await send(url, { to: EP, data: handleOps([a3, b1], BENEFICIARY_1) });
  const statuses = [tx1, tx2, reverted, tx3, tx4, tx5].map((r) => r.status).join();
  if (statuses !== '0x1,0x1,0x0,0x1,0x1,0x1') throw new Error(`the bundles did not run as meant: ${statuses}`);

  const sent = [
    { receipt: tx1, ops: [a0], beneficiary: BENEFICIARY_1 },
    { receipt: tx2, ops: [b0, a1], beneficiary: BENEFICIARY_2 },
    { receipt: tx3, ops: [a2], beneficiary: BENEFICIARY_1 },
    { receipt: tx4, ops: [c0], beneficiary: BENEFICIARY_2 },
    { receipt: tx5, ops: [a3, b1], beneficiary: BENEFICIARY_1 },
  ];
  return { sent, reverted, tx1, tx2, tx3, tx4, tx5, accountA, accountB, accountC, accountFactory, paymaster, depositTo };
}

const anvil = await startAnvil();
t.teardown(() => anvil.stop());
const { sent, reverted, tx3, tx4, tx5, accountA, accountB, accountC, accountFactory, paymaster, depositTo } = await scenario(anvil.url);
const last = Number(tx5.blockNumber);

async function get(t: Test, ex: Explorer, path: string, template: string, query: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await ex.handle({ path: `${P}${path}`, query });
  const body = JSON.parse(toJson(r.body)) as Record<string, unknown>;
  if (specs !== null) t.same(validateResponse(specs, 'instance', `/proxy/account-abstraction${template}`, r.status, body), [], `${path}: the official document`);
  return { status: r.status, body };
}

for (const factory of await storeFactories()) {
  t.test(`${factory.name}: user operations indexed as the EntryPoint ran them`, async (t) => {
    const ds = await factory.open();
    t.teardown(() => ds.close());
    await indexerFor(anvil.url, ds).run({ to: last });

    const stored = await ds.listUserOperations({}, { after: null, limit: 50, order: 'desc' });
    t.equal(stored.length, 7, 'seven operations, none from the reverted bundle');
    t.same(await ds.listUserOperations({ transactionHash: reverted.transactionHash }, { after: null, limit: 50, order: 'desc' }), []);
    const hashOf = new Map<PackedOp, Hash>();
    for (const { receipt, ops, beneficiary } of sent) {
      const events = operationEventsOf(receipt);
      t.equal(events.length, ops.length, `${receipt.transactionHash}: one event per operation`);
      for (const [index, op] of ops.entries()) {
        const e = events[index];
        if (e === undefined) continue;
        hashOf.set(op, e.userOpHash.toLowerCase() as Hash);
        const got = await ds.getUserOperation(e.userOpHash.toLowerCase() as Hash);
        const opPaymaster = paymasterOf(op);
        t.equal(e.paymaster.toLowerCase(), opPaymaster ?? `0x${'0'.repeat(40)}`, 'the event names the paymaster of paymasterAndData');
        t.match(
          got,
          {
            sender: op.sender.toLowerCase(),
            nonce: op.nonce,
            initCode: op.initCode.toLowerCase(),
            callData: op.callData.toLowerCase(),
            paymasterAndData: op.paymasterAndData.toLowerCase(),
            signature: op.signature.toLowerCase(),
            callGasLimit: 200_000n,
            verificationGasLimit: 600_000n,
            preVerificationGas: 50_000n,
            maxPriorityFeePerGas: 1_000_000_000n,
            maxFeePerGas: 20_000_000_000n,
            gas: opPaymaster === null ? GAS_WITHOUT_PAYMASTER : GAS_WITH_PAYMASTER,
            entryPoint: EP,
            entryPointVersion: 'v0.7',
            transactionHash: receipt.transactionHash,
            blockNumber: Number(receipt.blockNumber),
            bundler: beneficiary,
            bundleIndex: 0,
            index,
            factory: op.initCode === EMPTY_HEX ? null : accountFactory,
            paymaster: opPaymaster,
            status: e.success,
            gasUsed: e.actualGasUsed,
            actualGasCost: e.actualGasCost,
            gasPrice: e.actualGasCost / e.actualGasUsed,
            sponsorType: sponsorTypeOf(receipt, op),
            aggregator: null,
          },
          `${receipt.transactionHash} operation ${index}`,
        );
        if (got !== null && got.status) t.equal(got.revertReason, null);
      }
    }
    t.same(
      [...new Set(stored.map((o) => o.sponsorType))].sort(),
      ['paymaster_hybrid', 'paymaster_sponsor', 'wallet_balance', 'wallet_deposit'],
      'each of the four sponsor types: a prefund paid into the deposit, a deposit already held, a paymaster alone, a paymaster whose deposit the bundle topped up',
    );
    const failed = await ds.getUserOperation(stored.find((o) => o.nonce === 1n && o.sender === accountA.toLowerCase())?.hash ?? hash('0x'));
    t.match(failed, { status: false, revertReason: '0xdeadbeef', userLogsCount: 0 }, "A's reverted call: its revert data");
    t.same(
      (await ds.listUserOperations({ factory: accountFactory }, { after: null, limit: 50, order: 'asc' })).map((o) => o.sender),
      [accountA.toLowerCase(), accountB.toLowerCase(), accountC.toLowerCase()],
      'the three operations that created their accounts',
    );
    const bundles = await ds.listUserOperationBundles({}, { after: null, limit: 50, order: 'asc' });
    t.same(
      bundles.map((b) => [b.transactionHash, b.bundler, b.totalOps]),
      sent.map(({ receipt, ops, beneficiary }) => [receipt.transactionHash, beneficiary, ops.length]),
      'five bundles, their beneficiaries and counts',
    );

    const logged = tx3.logs.find((l) => l.address.toLowerCase() === LOGGER);
    const [a2, c0, a3, b1] = [sent[2]?.ops[0], sent[3]?.ops[0], sent[4]?.ops[0], sent[4]?.ops[1]].map((op) => (op === undefined ? '0x' : (hashOf.get(op) ?? '0x'))) as [Hash, Hash, Hash, Hash];
    t.match(await ds.getUserOperation(a2), { userLogsStartIndex: Number(logged?.logIndex), userLogsCount: 1 }, 'its own log, between the EntryPoint’s');

    // through the endpoints: the paymaster, the operation that created its account and called in one
    const ex = createExplorer({ chains: { '1': ds } });
    const c0Log = tx4.logs.find((l) => l.address.toLowerCase() === LOGGER);
    t.ok(c0Log, "C's call reached the logger");
    t.match(
      (await get(t, ex, `/operations/${c0}`, '/operations/{operation_hash_param}')).body,
      {
        sender: { hash: getAddress(accountC) },
        factory: { hash: getAddress(accountFactory) },
        paymaster: { hash: getAddress(paymaster) },
        sponsor_type: 'paymaster_sponsor',
        gas: String(GAS_WITH_PAYMASTER),
        status: true,
        execute_target: { hash: getAddress(LOGGER) },
        execute_call_data: C_INNER,
        user_logs_start_index: Number(c0Log?.logIndex),
        user_logs_count: 1,
        transaction_hash: tx4.transactionHash,
      },
      "C's first operation: created by the factory, paid by the paymaster, its execute's target and call data, its log",
    );
    t.match(
      (await get(t, ex, `/operations/${a3}`, '/operations/{operation_hash_param}')).body,
      { paymaster: { hash: getAddress(paymaster) }, factory: null, sponsor_type: 'paymaster_hybrid', execute_target: { hash: getAddress(EP) }, execute_call_data: depositTo(paymaster) },
      "A's sponsored operation that topped up the paymaster's deposit: hybrid",
    );
    t.match((await get(t, ex, `/operations/${b1}`, '/operations/{operation_hash_param}')).body, { paymaster: null, sponsor_type: 'wallet_balance', execute_target: { hash: getAddress(RECEIVER) }, execute_call_data: '0x' }, "B's operation from its deposit: the wallet's balance");
    const sponsored = stored.filter((o) => o.paymaster === paymaster).length;
    t.equal(sponsored, 2, 'two operations carry the paymaster');
    const paymasters = (await get(t, ex, '/paymasters', '/paymasters')).body;
    t.same((paymasters['items'] as { address: { hash: string }; total_ops: number }[]).map((p) => [p.address.hash, p.total_ops]), [[getAddress(paymaster), sponsored]], '/paymasters: the paymaster and its operations');
    t.equal(paymasters['next_page_params'], null);
    t.match((await get(t, ex, `/paymasters/${paymaster}`, '/paymasters/{address_hash_param}')).body, { address: { hash: getAddress(paymaster) }, total_ops: sponsored }, '/paymasters/{h}');
    t.match((await get(t, ex, `/paymasters/${accountFactory}`, '/paymasters/{address_hash_param}')), { status: 404, body: { code: 5, message: 'paymaster not found' } }, 'the factory is no paymaster');
    const sponsoredList = (await get(t, ex, '/operations', '/operations', { paymaster: getAddress(paymaster) })).body['items'] as { hash: string }[];
    t.same(sponsoredList.map((o) => o.hash), [a3, c0], '/operations?paymaster: its two operations, newest first');

    const parties = async () =>
      Promise.all((['bundler', 'factory', 'paymaster', 'sender'] as const).map(async (role) => (await ds.listUserOperationParties(role, { after: null, limit: 50, order: 'desc' })).map((p) => [p.address, p.totalOps, p.totalBundles])));
    const counted = [
      [
        [BENEFICIARY_1, 4, 3],
        [BENEFICIARY_2, 3, 2],
      ],
      [[accountFactory, 3, 0]],
      [[paymaster, 2, 0]],
      [
        [accountA.toLowerCase(), 4, 0],
        [accountB.toLowerCase(), 2, 0],
        [accountC.toLowerCase(), 1, 0],
      ],
    ];
    t.same(await parties(), counted, 'bundlers by bundles, the factory by the accounts it created, the paymaster and the accounts by operations');

    // /accounts: each account once, in address order, created where the EntryPoint said AccountDeployed
    const created = await Promise.all(
      sent.flatMap(({ receipt }) =>
        deploymentsOf(receipt).map(async (d) => {
          const sender = d.sender.toLowerCase() as Address;
          const at = await ds.getBlock({ number: Number(receipt.blockNumber) });
          return {
            address: sender,
            factory: d.factory.toLowerCase(),
            creation_transaction_hash: receipt.transactionHash,
            creation_op_hash: d.userOpHash.toLowerCase(),
            creation_timestamp: at === null ? null : `${new Date(at.timestamp * 1000).toISOString().slice(0, 19)}.000000Z`,
            total_ops: stored.filter((o) => o.sender === sender).length,
          };
        }),
      ),
    );
    t.equal(created.length, 3, 'three AccountDeployed events');
    created.sort((a, b) => (a.address < b.address ? -1 : 1));
    type AccountItem = Record<string, unknown> & { address: { hash: string }; factory: { hash: string } | null };
    const plainAccounts = (body: Record<string, unknown>) => (body['items'] as AccountItem[]).map((a) => ({ ...a, address: a.address.hash.toLowerCase(), factory: a.factory?.hash.toLowerCase() ?? null }));
    const accounts = (await get(t, ex, '/accounts', '/accounts')).body;
    t.same([plainAccounts(accounts), accounts['next_page_params']], [created, null], '/accounts: the three accounts, their operations and their creations as the events say');
    const walked: Record<string, unknown>[] = [];
    let query: Record<string, string> = { page_size: '1' };
    for (let i = 0; i < 5; i++) {
      const { body } = await get(t, ex, '/accounts', '/accounts', query);
      walked.push(...plainAccounts(body));
      const next = body['next_page_params'] as { page_token: string } | null;
      if (next === null) break;
      query = { page_size: '1', page_token: next.page_token };
    }
    t.same(walked, created, '/accounts by one: each once');
    t.same(plainAccounts((await get(t, ex, '/accounts', '/accounts', { factory: getAddress(accountFactory) })).body), created, '/accounts?factory: the factory created all three');
    t.same(plainAccounts((await get(t, ex, '/accounts', '/accounts', { factory: getAddress(paymaster) })).body), [], '/accounts?factory=<the paymaster>: none');

    // a store indexed before user operations were derived: the backfill re-reads the blocks
    const everything = await ds.listUserOperations({}, { after: null, limit: 50, order: 'desc' });
    for (const { receipt } of sent) {
      const block = await ds.getBlock({ number: Number(receipt.blockNumber) });
      if (block !== null) await ds.writeUserOperations?.(block.hash, []);
    }
    t.same(await ds.listUserOperations({}, { after: null, limit: 50, order: 'desc' }), [], 'emptied, as before user operations');
    const logs: string[] = [];
    await indexerFor(anvil.url, ds, { logs }).run({ to: last, userOperationsBackfill: true });
    t.same(await ds.listUserOperations({}, { after: null, limit: 50, order: 'desc' }), everything, 'the backfill stores them again, the same');
    t.ok(logs.some((l) => l.includes('user operations: 7 written for 5 block(s)')), 'and says what it did');
    t.same(await parties(), counted, 'and counts them again');

    // a rollback across the last three bundles takes their operations away
    await ds.rollbackAbove(Number(tx3.blockNumber) - 1);
    for (const h of [a2, c0, a3, b1]) t.equal(await ds.getUserOperation(h), null, `${h.slice(0, 10)}: rolled back with its block`);
    t.equal((await ds.listUserOperations({}, { after: null, limit: 50, order: 'desc' })).length, 3, 'the three of the first two bundles remain');
  });
}

t.test('scoutkit index: --entry-point and --user-ops-backfill', async (t) => {
  const base = ['--rpc', anvil.url, '--db', 'memory:'];
  const mine = '0x000000000000000000000000000000000000E9E9';
  t.match(parseIndexArgs([...base, '--entry-point', `${mine}=v0.8`, '--user-ops-backfill']), { entryPoints: { [mine.toLowerCase()]: 'v0.8' }, userOpsBackfill: true });
  t.notOk('entryPoints' in parseIndexArgs(base), 'none given: the canonical three alone');
  t.throws(() => parseIndexArgs([...base, '--entry-point', `${mine}=v0.9`]), /--entry-point: expected <address>=<version> \(version v0\.6, v0\.7, v0\.8\), got/);
  t.throws(() => parseIndexArgs([...base, '--entry-point', '0x1234=v0.7']), /--entry-point/);
});
