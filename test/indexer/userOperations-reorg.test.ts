/**
 * A reorg across user operations, on anvil with the indexer following (the chain of
 * userOpsScenario.ts): account A created by its first operation; then, in two blocks, account C
 * created by an operation its paymaster pays (another bundler) and A's second operation; then
 * `anvil_reorg` replaces those two blocks with an empty one and one holding A's bundle again in
 * another transaction, and a block is mined on top. Once the indexer has followed: C's operation
 * is gone (/operations, /operations/{h}, /accounts/{h}), A's is kept once, in its new block and
 * transaction; the bundlers', paymasters', factories' and accounts' counts are those of the
 * node's UserOperationEvents, no party left over; every answer validated against the official
 * document. On every store, an anvil each.
 */
import t from 'tap';
import type { Test } from 'tap';
import { encodeEventTopics, getAddress, parseEther } from 'viem';
import { startAnvil } from '../../demo/anvil.ts';
import type { Address, Hash, Hex } from '../../lib/domain/records.ts';
import type { IndexerEvent } from '../../lib/indexer/index.ts';
import { createExplorer, EMPTY_HEX, hex, toJson } from '../../lib/index.ts';
import type { Explorer } from '../../lib/index.ts';
import { officialSpecs, validateResponse } from '../support/openapi.ts';
import { storeFactories } from '../support/stores.ts';
import { DEV_ACCOUNT0, indexerFor, rpc, toHex } from './helpers.ts';
import { BENEFICIARY_1, BENEFICIARY_2, deployUserOps, ENTRY_POINT, EP, LOGGER, operationEventsOf, OWNER_A, OWNER_C, RECEIVER, receiptOf, send } from './userOpsScenario.ts';

const specs = await officialSpecs();
const P = '/api/v2/proxy/account-abstraction';
const [USER_OPERATION_EVENT] = encodeEventTopics({ abi: ENTRY_POINT.abi, eventName: 'UserOperationEvent' });

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

type Body = Record<string, unknown>;
async function get(t: Test, ex: Explorer, path: string, template: string): Promise<{ status: number; body: Body }> {
  const r = await ex.handle({ path: `${P}${path}`, query: {} });
  const body = JSON.parse(toJson(r.body)) as Body;
  if (specs !== null) t.same(validateResponse(specs, 'instance', `/proxy/account-abstraction${template}`, r.status, body), [], `${path} ${r.status}: the official document`);
  return { status: r.status, body };
}
const items = async (t: Test, ex: Explorer, plural: string) => ((await get(t, ex, `/${plural}`, `/${plural}`)).body['items'] ?? []) as (Body & { address: { hash: string } })[];

/** the parties as the endpoints count them: [address, counts…] in the lists' order */
async function parties(t: Test, ex: Explorer) {
  return {
    bundlers: (await items(t, ex, 'bundlers')).map((b) => [b.address.hash, b['total_bundles'], b['total_ops']]),
    paymasters: (await items(t, ex, 'paymasters')).map((p) => [p.address.hash, p['total_ops']]),
    factories: (await items(t, ex, 'factories')).map((f) => [f.address.hash, f['total_accounts']]),
    accounts: (await items(t, ex, 'accounts')).map((a) => [a.address.hash, a['total_ops']]),
  };
}

for (const factory of await storeFactories()) {
  t.test(`${factory.name}: a reorg across a user operation takes it away, the indexer following`, async (t) => {
    const anvil = await startAnvil();
    const ds = await factory.open();
    t.teardown(async () => {
      await ds.close();
      await anvil.stop();
    });
    const { accountFactory, paymaster, accountOf, execute, initCodeOf, signed, base, handleOps } = await deployUserOps(anvil.url);
    const [accountA, accountC] = [await accountOf(OWNER_A.address), await accountOf(OWNER_C.address)];
    for (const a of [accountA, accountC]) await send(anvil.url, { to: a, value: toHex(parseEther('1')) });
    const a0 = await signed(OWNER_A, base(accountA, 0n, execute(RECEIVER, 1n, EMPTY_HEX), initCodeOf(OWNER_A.address)));
    const tx1 = await send(anvil.url, { to: EP, data: handleOps([a0], BENEFICIARY_1) });

    const controller = new AbortController();
    const events: IndexerEvent[] = [];
    const running = indexerFor(anvil.url, ds, { events }).run({ follow: true, signal: controller.signal });
    t.teardown(() => controller.abort());

    // the soon-orphaned blocks: C created through the paymaster (bundler 2), then A's second operation (bundler 1)
    const c0 = await signed(OWNER_C, base(accountC, 0n, execute(LOGGER, 7n, hex('0xc0ffee00')), initCodeOf(OWNER_C.address), true));
    const orphanedTx = await send(anvil.url, { to: EP, data: handleOps([c0], BENEFICIARY_2) });
    const a1 = await signed(OWNER_A, base(accountA, 1n, execute(RECEIVER, 2n, EMPTY_HEX)));
    const movedTx = await send(anvil.url, { to: EP, data: handleOps([a1], BENEFICIARY_1) });
    const [hashA0, hashC0, hashA1] = [tx1, orphanedTx, movedTx].map((r) => operationEventsOf(r)[0]?.userOpHash.toLowerCase() as Hash);
    if (Number(movedTx.blockNumber) !== Number(orphanedTx.blockNumber) + 1) throw new Error('the two bundles are not in consecutive blocks');
    await until(async () => (await ds.getUserOperation(hashA1))?.blockNumber === Number(movedTx.blockNumber), "A's second operation indexed");

    const ex = createExplorer({ chains: { '1': ds } });
    const cs = (a: Address) => getAddress(a);
    t.same(
      await parties(t, ex),
      {
        bundlers: [
          [cs(BENEFICIARY_1), 2, 2],
          [cs(BENEFICIARY_2), 1, 1],
        ],
        paymasters: [[cs(paymaster), 1]],
        factories: [[cs(accountFactory), 2]],
        accounts: [
          [cs(accountA), 2],
          [cs(accountC), 1],
        ].sort((x, y) => (String(x[0]).toLowerCase() < String(y[0]).toLowerCase() ? -1 : 1)),
      },
      'before the reorg: both bundlers, the paymaster, two accounts created',
    );
    t.equal((await get(t, ex, `/operations/${hashC0}`, '/operations/{operation_hash_param}')).status, 200, "C's operation is served");

    // the reorg: both blocks replaced, the first empty, the second holding A's bundle again (another transaction); a block on top
    const oldHead = Number(movedTx.blockNumber);
    await rpc(anvil.url, 'anvil_reorg', [2, [[{ from: DEV_ACCOUNT0, to: EP, data: handleOps([a1], BENEFICIARY_1), gas: toHex(15_000_000) }, 1]]]);
    await rpc(anvil.url, 'evm_mine', []);
    const head = Number(await rpc(anvil.url, 'eth_blockNumber', []));
    t.equal(head, oldHead + 1, 'the node: the same height again, and one more');
    const moved = (await rpc(anvil.url, 'eth_getBlockByNumber', [toHex(oldHead), false])) as { hash: Hash; transactions: Hash[] };
    t.equal(moved.transactions.length, 1, "the replacing block holds A's bundle");
    const movedAgain = await receiptOf(anvil.url, moved.transactions[0] as Hash);
    t.equal(operationEventsOf(movedAgain)[0]?.userOpHash.toLowerCase(), hashA1, 'the same operation');
    t.not(movedAgain.transactionHash, movedTx.transactionHash, 'in another transaction');
    t.same(((await rpc(anvil.url, 'eth_getBlockByNumber', [toHex(oldHead - 1), false])) as { transactions: Hash[] }).transactions, [], 'the block that held C’s bundle is empty now');

    await until(async () => (await ds.getUserOperation(hashA1))?.transactionHash === movedAgain.transactionHash && (await ds.getHighestBlockNumber()) === head, 'the indexer following the reorg');
    controller.abort();
    await running;
    t.ok(events.some((e) => e.type === 'reorg'), 'the indexer saw the reorg');

    // the node's operations, from its UserOperationEvent logs
    const logs = (await rpc(anvil.url, 'eth_getLogs', [{ address: EP, topics: [USER_OPERATION_EVENT], fromBlock: '0x0', toBlock: 'latest' }])) as { topics: Hex[]; blockNumber: Hex }[];
    const onNode = logs.map((l) => (l.topics[1] ?? '').toLowerCase()).reverse();
    t.same(onNode, [hashA1, hashA0], "the node: A's two operations");
    const listed = ((await get(t, ex, '/operations', '/operations')).body['items'] as { hash: string }[]).map((o) => o.hash);
    t.same(listed, onNode, "/operations: the node's operations, each once, C's gone");
    t.same((await ds.listUserOperations({}, { after: null, limit: 50, order: 'desc' })).map((o) => o.hash), onNode, 'the store holds no other');
    t.match((await get(t, ex, `/operations/${hashC0}`, '/operations/{operation_hash_param}')), { status: 404, body: { code: 5, message: 'user operation not found' } }, "C's operation: 404");
    t.match(
      (await get(t, ex, `/operations/${hashA1}`, '/operations/{operation_hash_param}')).body,
      { transaction_hash: movedAgain.transactionHash, block_number: String(oldHead), block_hash: moved.hash, bundler: { hash: cs(BENEFICIARY_1) }, paymaster: null },
      "A's second operation in its new transaction and block",
    );
    const bundles = ((await get(t, ex, '/bundles', '/bundles')).body['items'] as { transaction_hash: string; total_ops: number }[]).map((b) => [b.transaction_hash, b.total_ops]);
    t.same(bundles, [[movedAgain.transactionHash, 1], [tx1.transactionHash, 1]], '/bundles: the moved bundle and the first, no orphaned one');

    t.same(
      await parties(t, ex),
      { bundlers: [[cs(BENEFICIARY_1), 2, 2]], paymasters: [], factories: [[cs(accountFactory), 1]], accounts: [[cs(accountA), 2]] },
      'after the reorg: bundler 2, the paymaster and account C gone; the factory created one account',
    );
    for (const [path, template, message] of [
      [`/bundlers/${BENEFICIARY_2}`, '/bundlers/{address_hash_param}', 'bundler not found'],
      [`/paymasters/${paymaster}`, '/paymasters/{address_hash_param}', 'paymaster not found'],
      [`/accounts/${accountC}`, '/accounts/{address_hash_param}', 'account not found'],
    ] as const) {
      t.match(await get(t, ex, path, template), { status: 404, body: { code: 5, message } }, `${path}: 404`);
    }
    t.match((await get(t, ex, `/factories/${accountFactory}`, '/factories/{address_hash_param}')).body, { total_accounts: 1 }, '/factories/{h}: one account');
    t.match((await get(t, ex, `/accounts/${accountA}`, '/accounts/{address_hash_param}')).body, { total_ops: 2, creation_op_hash: hashA0, creation_transaction_hash: tx1.transactionHash }, '/accounts/{h}: A, created by its first operation');
  });
}
