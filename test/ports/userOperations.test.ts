/**
 * The user-operation family of the port (getUserOperation, listUserOperations,
 * listUserOperationBundles) over every store: the (block DESC, hash DESC) walk with each
 * filter, bundles grouped with their counts, consensus rows only, idempotent re-writes, whole
 * records with exact big integers, and operations leaving with a replaced or rolled-back block;
 * the backfill's members: the blocks holding an EntryPoint's logs, a stored block's operations set;
 * the parties' kept counts (accounts, bundlers, paymasters, factories) and the accounts' list
 * (address order, creations, by factory) through all of it, against the operations themselves.
 */
import type { Address, BlockRecord, Hash, TransactionRecord } from '../../lib/domain/records.ts';
import { EMPTY_HEX, hex } from '../../lib/domain/hex.ts';
import type { UserOperationRecord } from '../../lib/domain/userOperations.ts';
import type {
  UserOperationAccount,
  UserOperationAccountCursor,
  UserOperationBundle,
  UserOperationBundleCursor,
  UserOperationBundleFilter,
  UserOperationCursor,
  UserOperationFilter,
  UserOperationParty,
  UserOperationPartyCursor,
  UserOperationRole,
} from '../../lib/ports.ts';
import type { TestStore } from '../support/stores.ts';
import type { Test } from 'tap';
import { A, B, C, addr, block, bundle, h32, log, page, tx, walksBothWays } from './records.ts';
import { storeTest } from './stores.ts';

const EP7 = addr(0x7777);
const EP6 = addr(0x6666);
const X = addr(0xb0b1); // bundlers
const Y = addr(0xb0b2);
const P = addr(0x9a);
const F = addr(0xfa);
const G = addr(0xfb);

function op(t: TransactionRecord, tag: string, o: Partial<UserOperationRecord> = {}): UserOperationRecord {
  return {
    hash: h32(tag),
    sender: A,
    nonce: 0n,
    initCode: EMPTY_HEX,
    callData: hex('0xb61d27f6'),
    callGasLimit: 1n,
    verificationGasLimit: 2n,
    preVerificationGas: 3n,
    maxFeePerGas: 4n,
    maxPriorityFeePerGas: 5n,
    paymasterAndData: EMPTY_HEX,
    signature: hex('0x01'),
    aggregator: null,
    aggregatorSignature: null,
    entryPoint: EP7,
    entryPointVersion: 'v0.7',
    transactionHash: t.hash,
    transactionIndex: t.index ?? 0,
    blockNumber: t.blockNumber ?? 0,
    blockHash: t.blockHash ?? h32('none'),
    timestamp: t.timestamp ?? 0,
    bundler: X,
    bundleIndex: 0,
    index: 0,
    factory: null,
    paymaster: null,
    status: true,
    revertReason: null,
    gas: 6n,
    gasPrice: 7n,
    gasUsed: 8n,
    actualGasCost: 56n,
    sponsorType: 'wallet_balance',
    userLogsStartIndex: 0,
    userLogsCount: 0,
    ...o,
  };
}

const key = (r: UserOperationRecord) => r.hash;
const cursorOf = (r: UserOperationRecord): UserOperationCursor => ({ blockNumber: r.blockNumber, hash: r.hash });
const bundleKey = (b: UserOperationBundle) => `${b.blockNumber}:${b.transactionHash.slice(-6)}#${b.bundleIndex}x${b.totalOps}`;
const bundleCursor = (b: UserOperationBundle): UserOperationBundleCursor => ({ blockNumber: b.blockNumber, transactionHash: b.transactionHash, bundleIndex: b.bundleIndex });
/** hashes in the list's order (block DESC, hash DESC) */
const ordered = (ops: readonly UserOperationRecord[]): Hash[] =>
  [...ops].sort((a, b) => b.blockNumber - a.blockNumber || (a.hash < b.hash ? 1 : a.hash > b.hash ? -1 : 0)).map((o) => o.hash);

const ROLES: readonly UserOperationRole[] = ['sender', 'bundler', 'paymaster', 'factory'];
const partyKey = (p: UserOperationParty) => `${p.address.slice(-4)}:${p.totalOps}/${p.totalBundles}`;
const partyCursor = (p: UserOperationParty): UserOperationPartyCursor => ({ count: p.role === 'bundler' ? p.totalBundles : p.totalOps, address: p.address });
/** the parties of a role as counted from the operations themselves, in the list's order */
function partiesOf(ops: readonly UserOperationRecord[], role: UserOperationRole): UserOperationParty[] {
  const counts = new Map<Address, { ops: number; bundles: Set<string> }>();
  for (const o of ops) {
    const a = o[role];
    if (a === null) continue;
    const c = counts.get(a) ?? { ops: 0, bundles: new Set<string>() };
    c.ops++;
    if (role === 'bundler') c.bundles.add(`${o.transactionHash}#${o.bundleIndex}`);
    counts.set(a, c);
  }
  const parties = [...counts].map(([address, c]) => ({ role, address, totalOps: c.ops, totalBundles: role === 'bundler' ? c.bundles.size : 0 }));
  const n = (p: UserOperationParty) => (role === 'bundler' ? p.totalBundles : p.totalOps);
  return parties.sort((a, b) => n(b) - n(a) || (a.address < b.address ? 1 : -1));
}
const accountKey = (a: UserOperationAccount) =>
  `${a.address.slice(-4)}:${a.totalOps}${a.creation === null ? '' : ` by ${a.creation.factory.slice(-2)} in ${a.creation.hash.slice(-6)}/${a.creation.transactionHash.slice(-6)}@${a.creation.timestamp}`}`;
const accountCursor = (a: UserOperationAccount): UserOperationAccountCursor => ({ address: a.address });
/** the accounts as found from the operations themselves, address ASC; with `factory`, those with an operation carrying it */
function accountsOf(ops: readonly UserOperationRecord[], factory?: Address): UserOperationAccount[] {
  const senders = [...new Set(ops.map((o) => o.sender))].filter((a) => factory === undefined || ops.some((o) => o.sender === a && o.factory === factory));
  return senders.sort().map((address) => {
    const mine = ops.filter((o) => o.sender === address);
    const [first] = mine.filter((o) => o.factory !== null).sort((a, b) => a.blockNumber - b.blockNumber || (a.hash < b.hash ? -1 : 1));
    const creation = first?.factory == null ? null : { factory: first.factory, transactionHash: first.transactionHash, hash: first.hash, timestamp: first.timestamp };
    return { address, totalOps: mine.length, creation };
  });
}
/** every role's list walked both ways, and its batch lookup, against the counts of `ops`; the accounts' list, all and by factory */
async function partiesAre(t: Test, s: TestStore, label: string, ops: readonly UserOperationRecord[]): Promise<void> {
  for (const factory of [undefined, F, G, addr(0xdead)]) {
    const want = accountsOf(ops, factory);
    const what = factory === undefined ? 'accounts' : `accounts of factory ${factory.slice(-4)}`;
    await walksBothWays(t, `${label}: ${what}`, (p) => s.listUserOperationAccounts(factory === undefined ? {} : { factory }, p), accountCursor, accountKey, want.map(accountKey));
  }
  const whole = await s.listUserOperationAccounts({}, page());
  t.same(whole, accountsOf(ops), `${label}: whole accounts`);
  for (const role of ROLES) {
    const want = partiesOf(ops, role);
    await walksBothWays(t, `${label}: ${role}s`, (p) => s.listUserOperationParties(role, p), partyCursor, partyKey, want.map(partyKey));
    const got = await s.getUserOperationParties(role, [...want.map((p) => p.address), addr(0xdead)]);
    t.same([...got].sort((a, b) => (a.address < b.address ? -1 : 1)), [...want].sort((a, b) => (a.address < b.address ? -1 : 1)), `${label}: ${role}s by address`);
  }
}

storeTest('user operations: lists, bundles, reorgs', async (t, s) => {
  const [b1, b3, b5] = [block(1), block(3), block(5)];
  const side = block(4, { tag: 'side', consensus: false });
  const [t10, t11, t30, t40, t50] = [tx(b1, 0), tx(b1, 1), tx(b3, 0), tx(side, 0), tx(b5, 0)];
  const huge = 2n ** 200n + 1n;
  const ops1 = [
    op(t10, 'o1a', { sender: A, paymaster: P, factory: F, initCode: hex(`${F}00`), paymasterAndData: hex(`${P}01`), nonce: huge, sponsorType: 'paymaster_sponsor', revertReason: hex('0x08c379a0'), status: false }),
    op(t10, 'o1b', { sender: B, index: 1, aggregator: C, aggregatorSignature: hex('0xfeed') }),
    // C: two operations carrying a factory (G here, F in block 5): the older is its creation
    op(t11, 'o1c', { sender: C, bundler: Y, factory: G, initCode: hex(`${G}03`) }),
    op(t11, 'o1d', { sender: A, bundler: Y, bundleIndex: 1, entryPoint: EP6, entryPointVersion: 'v0.6', nonce: 1n, userLogsStartIndex: 7, userLogsCount: 2 }),
  ];
  const ops3 = [op(t30, 'o3a', { sender: A, nonce: 2n, paymaster: P }), op(t30, 'o3b', { sender: B, index: 1, nonce: 1n, factory: G, initCode: hex(`${G}01`) })];
  // a block that lost consensus: its operation's factory names no account
  const ops4 = [op(t40, 'o4a', { sender: A, nonce: 3n, factory: G, initCode: hex(`${G}02`) })];
  const ops5 = [op(t50, 'o5a', { sender: C, bundler: Y, factory: F })];
  const bundles = [
    bundle(b1, { transactions: [t10, t11], userOperations: ops1 }),
    bundle(b3, { transactions: [t30], userOperations: ops3 }),
    bundle(side, { transactions: [t40], userOperations: ops4 }),
    bundle(b5, { transactions: [t50], userOperations: ops5 }),
  ];
  await s.writeBlocks(bundles);
  await s.writeBlocks(bundles.slice(1)); // stored already: nothing changes
  const all = [...ops1, ...ops3, ...ops5];
  const list = (f: UserOperationFilter) => (p: Parameters<typeof s.listUserOperations>[1]) => s.listUserOperations(f, p);
  const expect = (label: string, f: UserOperationFilter, keep: (o: UserOperationRecord) => boolean) => walksBothWays(t, label, list(f), cursorOf, key, ordered(all.filter(keep)));
  await expect('all', {}, () => true);
  await expect('sender A', { sender: A }, (o) => o.sender === A);
  await expect('bundler Y', { bundler: Y }, (o) => o.bundler === Y);
  await expect('paymaster P', { paymaster: P }, (o) => o.paymaster === P);
  await expect('factory F', { factory: F }, (o) => o.factory === F);
  await expect('entry point EP6', { entryPoint: EP6 }, (o) => o.entryPoint === EP6);
  await expect('transaction t11', { transactionHash: t11.hash }, (o) => o.transactionHash === t11.hash);
  await expect('t11 bundle 1', { transactionHash: t11.hash, bundleIndex: 1 }, (o) => o.transactionHash === t11.hash && o.bundleIndex === 1);
  await expect('block 3', { blockNumber: 3 }, (o) => o.blockNumber === 3);
  await expect('sender A in block 1 through EP7', { sender: A, blockNumber: 1, entryPoint: EP7 }, (o) => o.hash === h32('o1a'));
  t.same(await s.listUserOperations({ sender: addr(0xdead) }, page()), [], 'a sender without operations');
  t.same(await s.listUserOperations({ blockNumber: 4 }, page()), [], 'a block that lost consensus lists none');
  t.equal(await s.getUserOperation(h32('o4a')), null, 'nor finds them by hash');
  t.same(await s.getUserOperation(h32('o1a')), ops1[0], 'the whole record, nonce exact above 2^53');
  t.same(await s.getUserOperation(h32('o1d')), ops1[3]);
  t.equal(await s.getUserOperation(h32('nope')), null, 'an unknown hash');

  const bundlesOf = (f: UserOperationBundleFilter) => (p: Parameters<typeof s.listUserOperationBundles>[1]) => s.listUserOperationBundles(f, p);
  const [k50, k30, k11a, k11b, k10] = [`5:${t50.hash.slice(-6)}#0x1`, `3:${t30.hash.slice(-6)}#0x2`, `1:${t11.hash.slice(-6)}#1x1`, `1:${t11.hash.slice(-6)}#0x1`, `1:${t10.hash.slice(-6)}#0x2`];
  // within block 1 the transaction hashes order the bundles (DESC)
  const block1 = t11.hash > t10.hash ? [k11a, k11b, k10] : [k10, k11a, k11b];
  await walksBothWays(t, 'bundles', bundlesOf({}), bundleCursor, bundleKey, [k50, k30, ...block1]);
  await walksBothWays(t, 'bundles of Y', bundlesOf({ bundler: Y }), bundleCursor, bundleKey, [k50, k11a, k11b]);
  await walksBothWays(t, 'bundles through EP6', bundlesOf({ entryPoint: EP6 }), bundleCursor, bundleKey, [k11a]);
  await partiesAre(t, s, 'written', all);
  const [first] = await s.listUserOperationBundles({}, page(null, 1));
  t.same(first, { transactionHash: t50.hash, bundleIndex: 0, blockNumber: 5, timestamp: b5.timestamp, bundler: Y, totalOps: 1 }, 'a whole bundle');

  // a new consensus block at height 5 replaces the old one and its operations
  const b5x = block(5, { tag: 'x' });
  const t5x = tx(b5x, 0, { tag: 't5x' });
  await s.writeBlocks([bundle(b5x, { transactions: [t5x], userOperations: [op(t5x, 'o5x', { sender: B, nonce: 9n })] })]);
  t.same((await s.listUserOperations({}, page())).map(key), [h32('o5x'), ...ordered([...ops1, ...ops3])], 'the replaced block took its operations');
  t.equal(await s.getUserOperation(h32('o5a')), null);
  await partiesAre(t, s, 'replaced', [...ops1, ...ops3, op(t5x, 'o5x', { sender: B, nonce: 9n })]);

  await s.rollbackAbove(2);
  await partiesAre(t, s, 'rolled back', ops1);
  t.same((await s.listUserOperations({}, page())).map(key), ordered(ops1), 'a rollback removes the operations above it');
  t.same((await s.listUserOperationBundles({}, page())).map(bundleKey), block1);
  t.equal(await s.getUserOperation(h32('o3a')), null);
});

storeTest('user operations: the backfill members (blocksWithLogs, writeUserOperations)', async (t, s) => {
  const find = s.blocksWithLogs?.bind(s);
  const write = s.writeUserOperations?.bind(s);
  if (find === undefined || write === undefined) throw new Error('the store has no backfill members');
  const [b1, b2, b3] = [block(1), block(2), block(3)];
  const side = block(2, { tag: 'side', consensus: false });
  const topic = h32('before-execution');
  const [t10, t20, t30] = [tx(b1, 0), tx(b2, 0), tx(b3, 0)];
  const ep = (b: BlockRecord, parent: TransactionRecord, emitter: Address, topic0: Hash, index = 0) => ({ ...log(parent, index, emitter), topics: [topic0, h32('x')] });
  await s.writeBlocks([
    bundle(b1, { transactions: [t10], logs: [ep(b1, t10, EP7, topic)] }),
    bundle(b2, { transactions: [t20], logs: [ep(b2, t20, EP7, h32('another event'))] }),
    bundle(side, { transactions: [tx(side, 0, { tag: 'side tx' })] }),
    bundle(b3, { transactions: [t30], logs: [ep(b3, t30, EP6, topic), ep(b3, t30, EP7, topic, 1)] }),
  ]);
  t.same(await find([EP7, EP6], topic), [{ number: 1, hash: b1.hash }, { number: 3, hash: b3.hash }], 'the consensus blocks with such a log, lowest first, each once');
  t.same(await find([EP6, EP7, EP6], topic), [{ number: 1, hash: b1.hash }, { number: 3, hash: b3.hash }], 'whatever the addresses\' order');
  t.same(await find([EP7], topic), [{ number: 1, hash: b1.hash }, { number: 3, hash: b3.hash }]);
  t.same(await find([EP6], topic), [{ number: 3, hash: b3.hash }]);
  t.same(await find([addr(0x1234)], topic), []);
  const version = await s.getDataVersion();
  t.equal(await write(b1.hash, [op(t10, 'late1'), op(t10, 'late2', { index: 1, nonce: 1n })]), true, 'a stored block');
  t.not(await s.getDataVersion(), version, 'the data version moves');
  t.same((await s.listUserOperations({}, page())).map(key), ordered([op(t10, 'late1'), op(t10, 'late2')]));
  t.equal(await write(b1.hash, [op(t10, 'late1')]), true, 'written again: replaced, not added');
  t.same((await s.listUserOperations({}, page())).map(key), [h32('late1')]);
  await partiesAre(t, s, 'backfilled', [op(t10, 'late1')]);
  t.equal(await write(side.hash, []), false, 'not a consensus block');
  t.equal(await write(h32('unknown'), []), false, 'not a stored block');
  await s.rollbackAbove(0);
  t.same(await s.listUserOperations({}, page()), [], 'they leave with their block');
  t.same(await find([EP7, EP6], topic), []);
  await partiesAre(t, s, 'emptied', []);
});

storeTest('user operations: writeUserOperations side by side, as the backfill writes blocks — every count right, none lost', async (t, s) => {
  const write = s.writeUserOperations?.bind(s);
  if (write === undefined) throw new Error('the store has no backfill members');
  const blocks = Array.from({ length: 12 }, (_, i) => block(i + 1));
  const txs = blocks.map((b) => tx(b, 0));
  await s.writeBlocks(blocks.map((b, i) => bundle(b, { transactions: [txs[i] as TransactionRecord] })));
  const senders = [A, B, C];
  // each block's operations name the same parties in another order; the second round replaces
  // them with others, so that each write both takes counts off and adds them (two statements)
  const round = (r: number): UserOperationRecord[][] =>
    txs.map((t0, i) =>
      [0, 1].map((k) =>
        op(t0, `side-by-side ${r} ${i} ${k}`, {
          index: k,
          nonce: BigInt(r * 100 + k),
          sender: senders[(i + k + r) % 3] as Address,
          bundler: (i + r) % 2 === 0 ? X : Y,
          paymaster: (i + k + r) % 2 === 0 ? P : null,
          factory: k === 0 && (i + r) % 3 === 0 ? ((i + r) % 2 === 0 ? F : G) : null,
        }),
      ),
    );
  for (const r of [0, 1]) {
    const ops = round(r);
    const written = await Promise.all(blocks.map((b, i) => write(b.hash, ops[i] ?? [])));
    t.ok(written.every((w) => w), `round ${r}: every block written`);
    t.same((await s.listUserOperations({}, page(null, 100))).map(key), ordered(ops.flat()), `round ${r}: every operation once`);
    await partiesAre(t, s, `round ${r} side by side`, ops.flat());
  }
});
