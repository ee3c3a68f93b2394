import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import type { MemoryStore } from '../../../adapters/memory/index.ts';
import type {
  Address,
  AddressWrite,
  BlockBundle,
  BlockRecord,
  Hash,
  Hex,
  InternalTransactionRecord,
  LogRecord,
  StateChangeRecord,
  TokenBalanceRecord,
  TokenInstanceWrite,
  TokenRecord,
  TokenTransferRecord,
  TokenType,
  TransactionRecord,
} from '../../../lib/domain/records.ts';
import type {
  CurrentTokenBalance,
  InternalTransactionCursor,
  TokenBalanceCursor,
  TokenTransferCursor,
  TransactionCursor,
} from '../../../lib/ports.ts';

// ---- tiny record builders -------------------------------------------------------------------

const addr = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`;
const h32 = (tag: string): Hash => `0x${Buffer.from(tag).toString('hex').padStart(64, '0').slice(-64)}`;
const ZERO = addr(0);
const A = addr(0xa);
const B = addr(0xb);
const C = addr(0xc);
const MINER = addr(0x99);
const T20 = addr(0x2020);
const T721 = addr(0x721);
const T1155 = addr(0x1155);
const T404 = addr(0x404);

function block(number: number, o: { tag?: string; consensus?: boolean; miner?: Address } = {}): BlockRecord {
  return {
    number,
    hash: h32(`b${number}${o.tag ?? ''}`),
    parentHash: h32(`b${number - 1}`),
    timestamp: 1_700_000_000 + number,
    miner: o.miner ?? MINER,
    size: null,
    gasLimit: 30_000_000n,
    gasUsed: 0n,
    baseFeePerGas: null,
    difficulty: null,
    totalDifficulty: null,
    nonce: '0x0000000000000000',
    extraData: '0x',
    stateRoot: null,
    consensus: o.consensus ?? true,
    unclesHashes: [],
    transactionsCount: 0,
    internalTransactionsCount: 0,
    transactionFees: 0n,
    burntFees: 0n,
    priorityFee: 0n,
  };
}

function tx(b: BlockRecord | null, index: number, o: Partial<TransactionRecord> & { tag?: string } = {}): TransactionRecord {
  const { tag, ...rest } = o;
  return {
    hash: h32(tag ?? `t${b?.number ?? 'p'}.${index}`),
    blockNumber: b?.number ?? null,
    blockHash: b?.hash ?? null,
    index: b === null ? null : index,
    timestamp: b?.timestamp ?? null,
    baseFeePerGas: null,
    from: A,
    to: B,
    createdContract: null,
    value: 0n,
    gas: 21000n,
    gasPrice: 1n,
    maxFeePerGas: null,
    maxPriorityFeePerGas: null,
    gasUsed: b === null ? null : 21000n,
    status: b === null ? null : 'ok',
    error: null,
    revertReason: null,
    nonce: index,
    type: 2,
    input: '0x',
    methodId: null,
    insertedAt: 1000,
    kinds: [],
    hasErrorInInternalTransactions: null,
    ...rest,
  };
}

function itx(
  parent: TransactionRecord,
  index: number,
  type: string,
  from: Address,
  to: Address | null,
  createdContract: Address | null = null,
): InternalTransactionRecord {
  return {
    transactionHash: parent.hash,
    blockNumber: parent.blockNumber ?? 0,
    blockHash: parent.blockHash ?? h32('none'),
    transactionIndex: parent.index ?? 0,
    index,
    timestamp: parent.timestamp ?? 0,
    type,
    from,
    to,
    createdContract,
    value: 0n,
    gas: null,
    gasUsed: null,
    error: null,
  };
}

function log(parent: TransactionRecord, index: number): LogRecord {
  return {
    transactionHash: parent.hash,
    blockHash: parent.blockHash ?? h32('none'),
    blockNumber: parent.blockNumber ?? 0,
    transactionIndex: parent.index ?? 0,
    index,
    timestamp: parent.timestamp ?? 0,
    address: T20,
    topics: [],
    data: '0x',
  };
}

function transfer(
  parent: TransactionRecord,
  logIndex: number,
  tokenAddress: Address,
  tokenType: TokenType,
  from: Address,
  to: Address,
  tokenIds: bigint[] = [],
  amount: bigint | null = null,
): TokenTransferRecord {
  return {
    transactionHash: parent.hash,
    blockHash: parent.blockHash ?? h32('none'),
    blockNumber: parent.blockNumber ?? 0,
    transactionIndex: parent.index ?? 0,
    logIndex,
    timestamp: parent.timestamp ?? 0,
    from,
    to,
    tokenAddress,
    tokenType,
    amount,
    tokenIds,
    amounts: [],
    methodId: null,
  };
}

function token(address: Address, type: TokenType, name = 'Tok'): TokenRecord {
  return {
    address,
    type,
    name,
    symbol: 'TOK',
    decimals: type === 'ERC-20' ? 18n : null,
    totalSupply: null,
    holdersCount: 999n, // must be ignored by the store
    iconUrl: null,
    exchangeRate: null,
  };
}

function bal(b: BlockRecord, holder: Address, tokenAddress: Address, tokenType: TokenType, value: bigint, tokenId: bigint | null = null): TokenBalanceRecord {
  return { holder, tokenAddress, tokenType, tokenId, blockNumber: b.number, value };
}

function inst(b: BlockRecord, tokenAddress: Address, tokenType: TokenType, tokenId: bigint, name = `#${tokenId}`): TokenInstanceWrite {
  return { tokenAddress, tokenType, tokenId, metadata: { name }, blockNumber: b.number };
}

function address(b: BlockRecord, hash: Address, name: string | null): AddressWrite {
  return { hash, isContract: false, name, creationTransactionHash: null, creatorAddress: null, blockNumber: b.number };
}

function bundle(b: BlockRecord, parts: Partial<Omit<BlockBundle, 'block'>> = {}): BlockBundle {
  return {
    block: b,
    transactions: [],
    internalTransactions: [],
    logs: [],
    tokenTransfers: [],
    tokens: [],
    tokenBalances: [],
    coinBalances: [],
    tokenInstances: [],
    addresses: [],
    stateChanges: [],
    ...parts,
  };
}

/** Walk every page of a list with a small limit; the cursor comes from the last row. */
async function walk<R, C>(list: (after: C | null, limit: number) => Promise<readonly R[]>, cursorOf: (r: R) => C, limit: number): Promise<R[]> {
  const out: R[] = [];
  let after: C | null = null;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await list(after, limit);
    out.push(...page);
    if (page.length < limit) return out;
    after = cursorOf(page[page.length - 1]);
  }
  throw new Error('walk did not end');
}

const page = <C>(after: C | null = null, limit = 100) => ({ after, limit });

// ---- tests -----------------------------------------------------------------------------------

t.test('empty store', async (t) => {
  const s = createMemoryStore();
  t.equal(await s.getHighestBlockNumber(), null);
  t.equal(await s.getIndexedHead(), null);
  t.equal(await s.getBlock({ number: 0 }), null);
  t.equal(await s.getTransaction(h32('x')), null);
  t.same(await s.listBlocks({ kind: 'block' }, page()), []);
  t.same(await s.listTokenBalances({ holder: A }, page()), []);
});

t.test('writing the same block twice changes nothing', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const x = tx(b1, 0);
  await s.writeBlocks([bundle(b1, { transactions: [x], tokenBalances: [bal(b1, A, T20, 'ERC-20', 5n)], tokens: [token(T20, 'ERC-20')] })]);
  // same number and hash, different content: ignored
  await s.writeBlocks([
    bundle({ ...b1, miner: C }, { transactions: [x, tx(b1, 1)], tokenBalances: [bal(b1, A, T20, 'ERC-20', 7n)] }),
  ]);
  t.equal((await s.getBlock({ number: 1 }))?.miner, MINER);
  t.equal((await s.listTransactions({ status: 'validated' }, page())).length, 1);
  t.same(await s.listTokenBalances({ holder: A }, page()), [{ holder: A, tokenAddress: T20, tokenType: 'ERC-20', tokenId: null, value: 5n }]);
  t.equal((await s.getToken(T20))?.holdersCount, 1n, 'holdersCount is the store’s, not the bundle’s');
  // a duplicate inside one batch is also a no-op
  const b2 = block(2);
  await s.writeBlocks([bundle(b2), bundle(b2)]);
  t.same(await s.getIndexedHead(), { number: 2, hash: b2.hash });
});

t.test('writeBlocks is atomic', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  await s.writeBlocks([bundle(b1)]);

  const b2 = block(2);
  const b3 = block(3);
  const x3 = tx(b3, 0);
  // second bundle names a log of a transaction it does not contain
  await t.rejects(
    s.writeBlocks([bundle(b2, { transactions: [tx(b2, 0)] }), bundle(b3, { transactions: [x3], logs: [log(tx(b3, 5), 0)] })]),
    { name: 'InvalidWriteError' },
  );
  // a bundle whose rows throw while being read, mid-way through a batch
  const exploding = bundle(b3, { transactions: [x3] });
  const balances: TokenBalanceRecord[] = [bal(b3, A, T20, 'ERC-20', 1n)];
  Object.defineProperty(balances, 1, { enumerable: true, get: () => { throw new Error('boom'); } });
  await t.rejects(s.writeBlocks([bundle(b2), { ...exploding, tokenBalances: balances }]), /boom|could not be cloned/);
  // rows of the wrong block, lower-case violations
  await t.rejects(s.writeBlocks([bundle(b2, { transactions: [tx(b3, 0)] })]), { name: 'InvalidWriteError' });
  await t.rejects(s.writeBlocks([bundle(b2, { tokens: [token('0xABC' as Address, 'ERC-20')] })]), { name: 'InvalidWriteError' });
  // a field of the wrong type (a number where a bigint belongs)
  await t.rejects(
    s.writeBlocks([bundle(b2, { tokenBalances: [{ ...bal(b2, A, T20, 'ERC-20', 1n), value: 1 as unknown as bigint }] })]),
    { name: 'InvalidWriteError' },
  );
  // a hash already stored at another height
  await t.rejects(s.writeBlocks([bundle({ ...b2, hash: b1.hash })]), { name: 'InvalidWriteError' });

  t.equal(await s.getHighestBlockNumber(), 1);
  t.equal(await s.getBlock({ number: 2 }), null);
  t.equal(await s.getTransaction(tx(b2, 0).hash), null);
  t.same(await s.listTokenBalances({ holder: A }, page()), []);
});

t.test('a different block at a stored height replaces it', async (t) => {
  const s = createMemoryStore();
  const old = block(1, { tag: 'old' });
  const oldTx = tx(old, 0, { tag: 'old-tx' });
  await s.writeBlocks([
    bundle(old, { transactions: [oldTx], tokenBalances: [bal(old, A, T20, 'ERC-20', 9n)], tokens: [token(T20, 'ERC-20')] }),
  ]);
  const neu = block(1, { tag: 'new' });
  const newTx = tx(neu, 0, { tag: 'new-tx' });
  await s.writeBlocks([bundle(neu, { transactions: [newTx] })]);
  t.equal((await s.getBlock({ number: 1 }))?.hash, neu.hash);
  t.equal(await s.getBlock({ hash: old.hash }), null);
  t.equal(await s.getTransaction(oldTx.hash), null);
  t.equal((await s.getTransaction(newTx.hash))?.blockHash, neu.hash);
  t.same(await s.listTokenBalances({ holder: A }, page()), []);
  t.equal(await s.getToken(T20), null, 'token first written by the replaced block is gone');
});

t.test('non-consensus blocks', async (t) => {
  const s = createMemoryStore();
  const main = block(5);
  const side = block(5, { tag: 'side', consensus: false, miner: C });
  const sideTx = tx(side, 0, { tag: 'side-tx' });
  await s.writeBlocks([bundle(side, { transactions: [sideTx], tokenTransfers: [transfer(sideTx, 0, T20, 'ERC-20', A, B, [], 1n)] })]);
  t.equal((await s.getBlock({ number: 5 }))?.hash, side.hash, 'a non-consensus block when nothing else');
  t.equal(await s.getHighestBlockNumber(), null);
  t.same(await s.getIndexedHead(), { number: 5, hash: side.hash });
  await s.writeBlocks([bundle(main)]);
  t.equal((await s.getBlock({ number: 5 }))?.hash, main.hash, 'consensus block preferred');
  t.equal((await s.getBlock({ hash: side.hash }))?.hash, side.hash);
  t.same((await s.listBlocks({ kind: 'block' }, page())).map((b) => b.hash), [main.hash]);
  t.same((await s.listBlocks({ kind: 'reorg' }, page())).map((b) => b.hash), [side.hash]);
  t.same((await s.listBlocks({ kind: 'reorg', miner: MINER }, page())).length, 0);
  t.same((await s.listBlocks({ kind: 'reorg', miner: C }, page())).length, 1);
  t.same(await s.listBlocks({ kind: 'uncle' }, page()), []);
  t.same(await s.listTransactions({ status: 'validated' }, page()), [], 'no validated txs from non-consensus blocks');
  t.same(await s.listTokenTransfers({}, page()), [], 'no transfers from non-consensus blocks');
  t.equal((await s.getTransaction(sideTx.hash))?.hash, sideTx.hash, 'still found by hash');
});

t.test('rollbackAbove restores balances, holdersCount, owners, addresses, tokens', async (t) => {
  const s = createMemoryStore();
  const [b1, b2, b3] = [block(1), block(2), block(3)];
  const x1 = tx(b1, 0);
  const x2 = tx(b2, 0);
  const x3 = tx(b3, 0);
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x1],
      tokens: [token(T20, 'ERC-20', 'First'), token(T721, 'ERC-721'), token(T1155, 'ERC-1155')],
      tokenTransfers: [transfer(x1, 0, T721, 'ERC-721', ZERO, A, [7n])],
      tokenBalances: [
        bal(b1, A, T20, 'ERC-20', 10n),
        bal(b1, ZERO, T20, 'ERC-20', 50n),
        bal(b1, A, T721, 'ERC-721', 1n),
        bal(b1, A, T1155, 'ERC-1155', 1n, 5n),
      ],
      tokenInstances: [inst(b1, T721, 'ERC-721', 7n), inst(b1, T1155, 'ERC-1155', 5n)],
      addresses: [address(b1, A, 'alice')],
    }),
    bundle(b2, {
      transactions: [x2],
      tokens: [token(T20, 'ERC-20', 'Renamed')],
      tokenBalances: [bal(b2, A, T20, 'ERC-20', 0n), bal(b2, B, T20, 'ERC-20', 4n), bal(b2, C, T20, 'ERC-20', 6n)],
    }),
    bundle(b3, {
      transactions: [x3],
      tokens: [token(T404, 'ERC-404')],
      tokenTransfers: [transfer(x3, 0, T721, 'ERC-721', A, B, [7n])],
      tokenBalances: [
        bal(b3, C, T20, 'ERC-20', 0n),
        bal(b3, A, T721, 'ERC-721', 0n),
        bal(b3, B, T721, 'ERC-721', 1n),
        bal(b3, B, T1155, 'ERC-1155', 1n, 5n),
      ],
      tokenInstances: [inst(b3, T1155, 'ERC-1155', 5n, 'renamed')],
      addresses: [address(b3, A, 'alice-renamed')],
    }),
  ]);
  await s.writePendingTransactions([tx(null, 0, { tag: 'pending' })]);

  t.equal((await s.getToken(T20))?.holdersCount, 1n, 'only B is positive at 3 (zero address excluded)');
  t.equal((await s.getToken(T20))?.name, 'Renamed');
  t.equal((await s.getTokenInstance({ tokenAddress: T721, tokenId: 7n }))?.owner, B);
  t.same(await s.getTokenInstance({ tokenAddress: T1155, tokenId: 5n }), {
    tokenAddress: T1155, tokenId: 5n, tokenType: 'ERC-1155', metadata: { name: 'renamed' }, owner: null, isUnique: false,
  });
  t.same(await s.getAddresses([A]), [{ hash: A, isContract: false, name: 'alice-renamed', creationTransactionHash: null, creatorAddress: null }]);
  t.ok(await s.getToken(T404));

  await s.rollbackAbove(2);
  t.equal(await s.getHighestBlockNumber(), 2);
  t.same(await s.getIndexedHead(), { number: 2, hash: b2.hash });
  t.equal(await s.getTransaction(x3.hash), null);
  t.equal((await s.getToken(T20))?.holdersCount, 2n, 'B and C again');
  t.equal((await s.getToken(T721))?.holdersCount, 1n);
  t.equal(await s.getToken(T404), null, 'token first written above the height is gone');
  t.equal((await s.getTokenInstance({ tokenAddress: T721, tokenId: 7n }))?.owner, A);
  t.same(await s.getTokenInstance({ tokenAddress: T1155, tokenId: 5n }), {
    tokenAddress: T1155, tokenId: 5n, tokenType: 'ERC-1155', metadata: { name: '#5' }, owner: A, isUnique: true,
  });
  t.equal((await s.getAddresses([A]))[0]?.name, 'alice');
  t.same((await s.listTokenTransfers({ tokenAddress: T721 }, page())).map((r) => r.blockNumber), [1]);
  t.equal((await s.listTransactions({ status: 'pending' }, page())).length, 1, 'pending kept');

  await s.rollbackAbove(0);
  t.equal(await s.getIndexedHead(), null);
  t.equal(await s.getToken(T20), null);
  t.same(await s.getAddresses([A]), []);
  t.equal((await s.listTransactions({ status: 'pending' }, page())).length, 1);
});

t.test('pending transactions: order, cursor, replaced by mined', async (t) => {
  const s = createMemoryStore();
  const p1 = tx(null, 0, { tag: 'p1', insertedAt: 2000 });
  const p2 = tx(null, 0, { tag: 'p2', insertedAt: 1000 });
  const p3 = tx(null, 0, { tag: 'p3', insertedAt: 2000 });
  const p4 = tx(null, 0, { tag: 'p4', insertedAt: 3000 });
  await s.writePendingTransactions([p1, p2, p3, p4]);
  await s.writePendingTransactions([{ ...p2, insertedAt: 9999 }]); // idempotent by hash: first seen wins
  const expected = [p4, p1, p3, p2].map((x) => x.hash);
  t.same((await s.listTransactions({ status: 'pending' }, page())).map((x) => x.hash), expected);
  const walked = await walk<TransactionRecord, TransactionCursor>(
    (after, limit) => s.listTransactions({ status: 'pending' }, { after, limit }),
    (x) => ({ insertedAt: x.insertedAt, hash: x.hash }),
    1,
  );
  t.same(walked.map((x) => x.hash), expected);
  t.same(
    (await s.listTransactions({ status: 'pending' }, page({ insertedAt: 2000, hash: p1.hash }))).map((x) => x.hash),
    [p3.hash, p2.hash],
  );
  await t.rejects(s.writePendingTransactions([tx(block(1), 0)]), { name: 'InvalidWriteError' });

  const b1 = block(1);
  const mined = { ...p1, blockNumber: 1, blockHash: b1.hash, index: 0, timestamp: b1.timestamp };
  await s.writeBlocks([bundle(b1, { transactions: [mined] })]);
  t.same((await s.listTransactions({ status: 'pending' }, page())).map((x) => x.hash), [p4.hash, p3.hash, p2.hash]);
  t.equal((await s.getTransaction(p1.hash))?.blockNumber, 1);
  await s.writePendingTransactions([p1]);
  t.equal((await s.listTransactions({ status: 'pending' }, page())).length, 3, 'a mined tx is not pending again');
  t.equal((await s.getTransaction(p2.hash))?.blockNumber, null);
});

t.test('listBlocks order and cursor', async (t) => {
  const s = createMemoryStore();
  await s.writeBlocks([3, 1, 2, 5, 4].map((n) => bundle(block(n, { miner: n % 2 === 0 ? A : MINER }))));
  t.same((await s.listBlocks({ kind: 'block' }, page())).map((b) => b.number), [5, 4, 3, 2, 1]);
  t.same((await s.listBlocks({ kind: 'block' }, page({ number: 4 }, 2))).map((b) => b.number), [3, 2]);
  t.same((await s.listBlocks({ kind: 'block', miner: A }, page())).map((b) => b.number), [4, 2]);
  t.same((await s.listBlocks({ kind: 'block', miner: A }, page({ number: 4 }))).map((b) => b.number), [2]);
  t.same(await s.listBlocks({ kind: 'block' }, page(null, 0)), []);
  t.equal(await s.getHighestBlockNumber(), 5);
});

t.test('listTransactions validated: order, ties, filters, cursor', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const b2 = block(2);
  const m1: Hex = '0xa9059cbb';
  const m2: Hex = '0x095ea7b3';
  const txs1 = [
    tx(b1, 0, { kinds: ['coin_transfer'] }),
    tx(b1, 1, { kinds: ['contract_call', 'token_transfer'], methodId: m1 }),
    tx(b1, 2, { kinds: ['contract_call'], methodId: m2 }),
  ];
  const txs2 = [tx(b2, 0, { kinds: ['contract_creation'] }), tx(b2, 1, { kinds: ['token_transfer', 'coin_transfer'], methodId: m1 })];
  await s.writeBlocks([bundle(b1, { transactions: txs1 }), bundle(b2, { transactions: txs2 })]);
  const key = (x: TransactionRecord) => `${x.blockNumber}.${x.index}`;
  const all = ['2.1', '2.0', '1.2', '1.1', '1.0'];
  t.same((await s.listTransactions({ status: 'validated' }, page())).map(key), all);
  for (const limit of [1, 2, 3]) {
    const walked = await walk<TransactionRecord, TransactionCursor>(
      (after, l) => s.listTransactions({ status: 'validated' }, { after, limit: l }),
      (x) => ({ blockNumber: x.blockNumber ?? 0, index: x.index ?? 0 }),
      limit,
    );
    t.same(walked.map(key), all, `walk with limit ${limit}`);
  }
  t.same((await s.listTransactions({ status: 'validated' }, page({ blockNumber: 1, index: 2 }))).map(key), ['1.1', '1.0']);
  const kinds = await s.listTransactions({ status: 'validated', kinds: ['coin_transfer', 'token_transfer'] }, page());
  t.same(kinds.map(key), ['2.1', '1.1', '1.0'], 'OR of kinds, each tx once');
  t.same(
    (await s.listTransactions({ status: 'validated', kinds: ['coin_transfer', 'token_transfer'] }, page({ blockNumber: 2, index: 1 }, 1))).map(key),
    ['1.1'],
  );
  t.same((await s.listTransactions({ status: 'validated', methodIds: [m1, m2] }, page())).map(key), ['2.1', '1.2', '1.1']);
  t.same((await s.listTransactions({ status: 'validated', kinds: ['contract_call'], methodIds: [m2] }, page())).map(key), ['1.2']);
  t.same(await s.listTransactions({ status: 'validated', kinds: [] }, page()), [], 'an empty OR matches nothing');
  await t.rejects(s.listTransactions({ status: 'validated' }, page({ insertedAt: 1, hash: h32('x') })), TypeError);
});

t.test('internal transactions: top call hidden, direction rules, per-transaction order', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const b2 = block(2);
  const x10 = tx(b1, 0);
  const x11 = tx(b1, 1, { to: null, createdContract: C });
  const x20 = tx(b2, 0);
  const rows = [
    itx(x10, 0, 'call', A, B), // top-level call: never listed
    itx(x10, 1, 'call', B, A),
    itx(x10, 2, 'delegatecall', A, A), // self: listed once for A
    itx(x11, 0, 'create', A, null, C), // index-0 create: listed
    itx(x11, 1, 'create2', C, null, B),
  ];
  const rows2 = [itx(x20, 0, 'call', A, B), itx(x20, 1, 'staticcall', B, C), itx(x20, 2, 'selfdestruct', C, A)];
  await s.writeBlocks([
    bundle(b1, { transactions: [x10, x11], internalTransactions: rows }),
    bundle(b2, { transactions: [x20], internalTransactions: rows2 }),
  ]);
  const key = (r: InternalTransactionRecord) => `${r.blockNumber}.${r.transactionIndex}.${r.index}`;
  const list = async (f: Parameters<MemoryStore['listInternalTransactions']>[0], after: { blockNumber: number; transactionIndex: number; index: number } | null = null, limit = 100) =>
    (await s.listInternalTransactions(f, { after, limit })).map(key);

  t.same(await list({}), ['2.0.2', '2.0.1', '1.1.1', '1.1.0', '1.0.2', '1.0.1']);
  t.same(await list({ address: A }), ['2.0.2', '1.1.0', '1.0.2', '1.0.1']);
  t.same(await list({ address: A, direction: 'from' }), ['1.1.0', '1.0.2']);
  t.same(await list({ address: A, direction: 'to' }), ['2.0.2', '1.0.2', '1.0.1']);
  t.same(await list({ address: C, direction: 'to' }), ['2.0.1', '1.1.0'], 'created contract counts as to');
  t.same(await list({ address: C }), ['2.0.2', '2.0.1', '1.1.1', '1.1.0']);
  t.same(await list({ address: B, direction: 'to' }), ['1.1.1'], 'top call to B is hidden');
  t.same(await list({ address: A }, { blockNumber: 1, transactionIndex: 1, index: 0 }, 1), ['1.0.2']);
  const walked = await walk<InternalTransactionRecord, InternalTransactionCursor>(
    (after, limit) => s.listInternalTransactions({ address: A }, { after, limit }),
    (r) => ({ blockNumber: r.blockNumber, transactionIndex: r.transactionIndex, index: r.index }),
    1,
  );
  t.same(walked.map(key), ['2.0.2', '1.1.0', '1.0.2', '1.0.1']);
  t.same(await list({ transactionHash: x10.hash }), ['1.0.1', '1.0.2'], 'index ASC within a transaction');
  t.same(await list({ transactionHash: x11.hash }), ['1.1.0', '1.1.1']);
  t.same(await list({ transactionHash: x10.hash }, { blockNumber: 99, transactionIndex: 99, index: 1 }), ['1.0.2']);
});

t.test('token transfers: order, ties in one block, inclusive cursor, filters', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const b2 = block(2);
  const x10 = tx(b1, 0);
  const x11 = tx(b1, 1);
  const x20 = tx(b2, 0);
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x10, x11],
      tokenTransfers: [
        transfer(x10, 0, T20, 'ERC-20', A, B, [], 5n),
        transfer(x10, 1, T721, 'ERC-721', ZERO, A, [1n]),
        transfer(x11, 2, T1155, 'ERC-1155', A, B, [1n, 2n, 3n]),
        transfer(x11, 3, T721, 'ERC-721', ZERO, A, [2n]),
      ],
    }),
    bundle(b2, {
      transactions: [x20],
      tokenTransfers: [transfer(x20, 4, T721, 'ERC-721', A, B, [1n]), transfer(x20, 7, T20, 'ERC-20', B, C, [], 1n)],
    }),
  ]);
  const key = (r: TokenTransferRecord) => `${r.blockNumber}.${r.logIndex}`;
  const list = async (f: Parameters<MemoryStore['listTokenTransfers']>[0], after: { blockNumber: number; logIndex: number; inclusive?: boolean } | null = null, limit = 100) =>
    (await s.listTokenTransfers(f, { after, limit })).map(key);

  t.same(await list({}), ['2.7', '2.4', '1.3', '1.2', '1.1', '1.0']);
  t.same(await list({}, { blockNumber: 1, logIndex: 3 }), ['1.2', '1.1', '1.0']);
  t.same(await list({}, { blockNumber: 1, logIndex: 3, inclusive: true }, 2), ['1.3', '1.2']);
  t.same(await list({}, { blockNumber: 2, logIndex: 0 }), ['1.3', '1.2', '1.1', '1.0']);
  const walked = await walk<TokenTransferRecord, TokenTransferCursor>((after, limit) => s.listTokenTransfers({}, { after, limit }), (r) => ({ blockNumber: r.blockNumber, logIndex: r.logIndex }), 2);
  t.same(walked.map(key), ['2.7', '2.4', '1.3', '1.2', '1.1', '1.0']);
  t.same(await list({ tokenAddress: T721 }), ['2.4', '1.3', '1.1']);
  t.same(await list({ tokenAddress: T721, tokenId: 1n }), ['2.4', '1.1']);
  t.same(await list({ tokenAddress: T721, tokenId: 1n }, { blockNumber: 2, logIndex: 4 }), ['1.1']);
  t.same(await list({ tokenAddress: T1155, tokenId: 2n }), ['1.2'], 'batch contains the id');
  t.same(await list({ types: ['ERC-20', 'ERC-1155'] }), ['2.7', '1.2', '1.0']);
  t.same(await list({ types: [] }), []);
  t.same(await list({ transactionHash: x11.hash }), ['1.2', '1.3'], 'logIndex ASC within a transaction');
  t.same(await list({ transactionHash: x11.hash }, { blockNumber: 1, logIndex: 2 }), ['1.3']);
  t.same(await list({ transactionHash: x11.hash }, { blockNumber: 1, logIndex: 2, inclusive: true }), ['1.2', '1.3']);
  t.same(await list({ transactionHash: x11.hash, types: ['ERC-721'] }), ['1.3']);
});

t.test('logs and state changes of a transaction', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const x0 = tx(b1, 0);
  const x1 = tx(b1, 1);
  const sc = (parent: TransactionRecord, ordinal: number, address: Address): StateChangeRecord => ({
    transactionHash: parent.hash, address, type: 'coin', tokenAddress: null, tokenId: null,
    balanceBefore: 1n, balanceAfter: 0n, isMiner: false, ordinal,
  });
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x0, x1],
      logs: [log(x1, 4), log(x0, 1), log(x1, 2), log(x0, 0), log(x1, 3)],
      stateChanges: [sc(x0, 2, C), sc(x0, 0, A), sc(x0, 1, B), sc(x1, 0, A)],
    }),
  ]);
  t.same((await s.listLogs({ transactionHash: x1.hash }, page())).map((l) => l.index), [2, 3, 4]);
  t.same((await s.listLogs({ transactionHash: x1.hash }, page({ index: 2 }, 1))).map((l) => l.index), [3]);
  t.same((await s.listStateChanges(x0.hash)).map((c) => c.address), [A, B, C]);
  t.same(await s.listStateChanges(h32('unknown')), []);
});

t.test('token balances: current values, order with ties and null ids, cursor', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const b2 = block(2);
  const T7984 = addr(0x7984);
  const TOLD = addr(0x01d);
  await s.writeBlocks([
    bundle(b1, {
      tokenBalances: [
        bal(b1, A, T20, 'ERC-20', 100n),
        bal(b1, A, TOLD, 'ERC-20', 50n),
        bal(b1, A, T1155, 'ERC-1155', 5n, 1n),
        bal(b1, A, T1155, 'ERC-1155', 5n, 2n),
        bal(b1, A, T404, 'ERC-404', 5n),
        bal(b1, A, T404, 'ERC-404', 5n, 9n),
        bal(b1, A, T721, 'ERC-721', 5n),
        bal(b1, A, T7984, 'ERC-7984', 0n),
        bal(b1, B, T20, 'ERC-20', 1n),
      ],
    }),
    bundle(b2, { tokenBalances: [bal(b2, A, TOLD, 'ERC-20', 0n), bal(b2, A, T20, 'ERC-20', 5n)] }),
  ]);
  const key = (b: { value: bigint; tokenAddress: Address; tokenId: bigint | null }) => `${b.value}:${b.tokenAddress}:${b.tokenId ?? '-'}`;
  // value DESC, tokenAddress DESC, tokenId DESC with null lowest
  const expected = [
    `5:${T20}:-`,
    `5:${T1155}:2`,
    `5:${T1155}:1`,
    `5:${T721}:-`,
    `5:${T404}:9`,
    `5:${T404}:-`,
    `0:${T7984}:-`,
  ];
  t.same((await s.listTokenBalances({ holder: A }, page())).map(key), expected);
  for (const limit of [1, 2, 4]) {
    const walked = await walk<CurrentTokenBalance, TokenBalanceCursor>(
      (after, l) => s.listTokenBalances({ holder: A }, { after, limit: l }),
      (b) => ({ value: b.value, tokenAddress: b.tokenAddress, tokenId: b.tokenId }),
      limit,
    );
    t.same(walked.map(key), expected, `walk with limit ${limit}`);
  }
  t.same(
    (await s.listTokenBalances({ holder: A }, page({ value: 5n, tokenAddress: T404, tokenId: 9n }))).map(key),
    [`5:${T404}:-`, `0:${T7984}:-`],
  );
  t.same((await s.listTokenBalances({ holder: A, types: ['ERC-404', 'ERC-20'] }, page())).map(key), [`5:${T20}:-`, `5:${T404}:9`, `5:${T404}:-`]);
  t.equal((await s.getToken(T20)), null, 'no token record written');
});

t.test('ERC-1155 / ERC-404 uniqueness and ERC-721 ownership', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const x = tx(b1, 0);
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x],
      tokenTransfers: [transfer(x, 0, T721, 'ERC-721', ZERO, A, [1n]), transfer(x, 1, T721, 'ERC-721', A, B, [1n])],
      tokenBalances: [
        bal(b1, A, T1155, 'ERC-1155', 1n, 1n), // id 1: sole holder of exactly 1 → unique
        bal(b1, A, T1155, 'ERC-1155', 2n, 2n), // id 2: sole holder of 2 → not unique
        bal(b1, A, T1155, 'ERC-1155', 1n, 3n), // id 3: two holders → not unique
        bal(b1, B, T1155, 'ERC-1155', 1n, 3n),
        bal(b1, A, T1155, 'ERC-1155', 1n, 4n), // id 4: zero address ignored; B holds 0
        bal(b1, ZERO, T1155, 'ERC-1155', 3n, 4n),
        bal(b1, B, T1155, 'ERC-1155', 0n, 4n),
        bal(b1, C, T404, 'ERC-404', 1n, 8n),
      ],
      tokenInstances: [
        inst(b1, T721, 'ERC-721', 1n),
        inst(b1, T721, 'ERC-721', 2n), // no transfer: owner unknown, still unique
        ...[1n, 2n, 3n, 4n, 5n].map((id) => inst(b1, T1155, 'ERC-1155', id)),
        inst(b1, T404, 'ERC-404', 8n),
      ],
    }),
  ]);
  const owner = async (tokenAddress: Address, tokenId: bigint) => {
    const i = await s.getTokenInstance({ tokenAddress, tokenId });
    return i === null ? 'missing' : `${i.owner ?? 'null'}/${i.isUnique}`;
  };
  t.equal(await owner(T721, 1n), `${B}/true`, 'latest transfer wins (same block, higher log index)');
  t.equal(await owner(T721, 2n), 'null/true');
  t.equal(await owner(T1155, 1n), `${A}/true`);
  t.equal(await owner(T1155, 2n), 'null/false');
  t.equal(await owner(T1155, 3n), 'null/false');
  t.equal(await owner(T1155, 4n), `${A}/true`);
  t.equal(await owner(T1155, 5n), 'null/false', 'instance without holders');
  t.equal(await owner(T1155, 6n), 'missing');
  t.equal(await owner(T404, 8n), `${C}/true`);
  const batch = await s.getTokenInstances([
    { tokenAddress: T1155, tokenId: 1n },
    { tokenAddress: T1155, tokenId: 1n },
    { tokenAddress: T1155, tokenId: 99n },
  ]);
  t.equal(batch.length, 1, 'batch: found records once, missing absent');
});

t.test('token instances list: order, cursor, holder filter', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const x = tx(b1, 0);
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x],
      tokenTransfers: [
        transfer(x, 0, T721, 'ERC-721', ZERO, A, [1n]),
        transfer(x, 1, T721, 'ERC-721', ZERO, A, [3n]),
        transfer(x, 2, T721, 'ERC-721', ZERO, B, [2n]),
        transfer(x, 3, T721, 'ERC-721', ZERO, A, [10n]), // no instance row
      ],
      tokenBalances: [bal(b1, A, T1155, 'ERC-1155', 4n, 1n), bal(b1, A, T1155, 'ERC-1155', 0n, 2n), bal(b1, A, T1155, 'ERC-1155', 1n, 3n)],
      tokenInstances: [
        ...[1n, 2n, 3n, 20n].map((id) => inst(b1, T721, 'ERC-721', id)),
        ...[1n, 2n, 3n].map((id) => inst(b1, T1155, 'ERC-1155', id)),
      ],
    }),
  ]);
  const ids = (rows: readonly { instance: { tokenId: bigint }; value: bigint | null }[]) => rows.map((r) => `${r.instance.tokenId}:${r.value ?? '-'}`);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T721 }, page())), ['20:-', '3:-', '2:-', '1:-']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T721 }, page({ tokenId: 3n }, 1))), ['2:-']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T721, holder: A }, page())), ['3:1', '1:1']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T721, holder: A }, page({ tokenId: 3n }))), ['1:1']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T1155, holder: A }, page())), ['3:1', '1:4']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T1155, holder: A }, page(null, 1))), ['3:1']);
  t.same(ids(await s.listTokenInstances({ tokenAddress: T1155, holder: B }, page())), []);
});

t.test('NFT collections: grouping, order, cursor, holdings', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const x = tx(b1, 0);
  const T721b = addr(0x7210);
  const T1155b = addr(0x11550);
  const mints = Array.from({ length: 11 }, (_, i) => transfer(x, i, T721, 'ERC-721', ZERO, A, [BigInt(i + 1)]));
  await s.writeBlocks([
    bundle(b1, {
      transactions: [x],
      tokenTransfers: [...mints, transfer(x, 20, T721b, 'ERC-721', ZERO, A, [5n]), transfer(x, 21, T721b, 'ERC-721', A, B, [5n])],
      tokenBalances: [
        bal(b1, A, T721, 'ERC-721', 11n),
        bal(b1, A, T721b, 'ERC-721', 0n), // gave it away: no collection
        bal(b1, A, T1155b, 'ERC-1155', 2n, 1n),
        bal(b1, A, T1155, 'ERC-1155', 3n, 7n),
        bal(b1, A, T1155, 'ERC-1155', 1n, 9n),
        bal(b1, A, T1155, 'ERC-1155', 0n, 10n),
        bal(b1, A, T404, 'ERC-404', 1000n), // fungible leg: not counted
        bal(b1, A, T404, 'ERC-404', 1n, 4n),
        bal(b1, A, T404, 'ERC-404', 1n, 6n),
        bal(b1, A, T20, 'ERC-20', 10n),
      ],
    }),
  ]);
  const all = await s.listNftCollections({ holder: A, types: ['ERC-404', 'ERC-1155', 'ERC-721'] }, page());
  t.same(
    all.map((c) => `${c.tokenType}:${c.tokenAddress}:${c.amount}`),
    [`ERC-721:${T721}:11`, `ERC-1155:${T1155}:2`, `ERC-1155:${T1155b}:1`, `ERC-404:${T404}:2`],
  );
  t.same(all[0].holdings.map((h) => `${h.tokenId}:${h.value}`), ['11:1', '10:1', '9:1', '8:1', '7:1', '6:1', '5:1', '4:1', '3:1'], 'up to 9, tokenId DESC');
  t.same(all[1].holdings.map((h) => `${h.tokenId}:${h.value}`), ['9:1', '7:3']);
  t.same(all[3].holdings.map((h) => `${h.tokenId}:${h.value}`), ['6:1', '4:1']);
  t.same(
    (await s.listNftCollections({ holder: A, types: ['ERC-721', 'ERC-1155', 'ERC-404'] }, page({ tokenType: 'ERC-1155', tokenAddress: T1155 }, 1))).map((c) => c.tokenAddress),
    [T1155b],
  );
  t.same(
    (await s.listNftCollections({ holder: A, types: ['ERC-1155', 'ERC-404'] }, page({ tokenType: 'ERC-721', tokenAddress: T721 }))).map((c) => c.tokenAddress),
    [T1155, T1155b, T404],
  );
  t.same((await s.listNftCollections({ holder: A, types: ['ERC-404'] }, page())).map((c) => c.tokenAddress), [T404]);
  t.same(
    (await s.listNftCollections({ holder: B, types: ['ERC-721'] }, page())),
    [],
    'ERC-721 collections come from balances; B has no balance row',
  );
});

t.test('batch lookups and immutability', async (t) => {
  const s = createMemoryStore();
  const b1 = block(1);
  const b2 = block(2);
  const x = tx(b1, 0, { kinds: ['coin_transfer'] });
  const input = bundle(b1, {
    transactions: [x],
    tokens: [token(T20, 'ERC-20'), token(T721, 'ERC-721')],
    tokenBalances: [bal(b1, A, T20, 'ERC-20', 1n), bal(b1, B, T20, 'ERC-20', 2n), bal(b1, ZERO, T20, 'ERC-20', 2n)],
    tokenInstances: [inst(b1, T721, 'ERC-721', 1n)],
    addresses: [address(b1, A, 'a1'), address(b1, B, 'b1')],
  });
  await s.writeBlocks([input, bundle(b2, { addresses: [address(b2, A, 'a2')], tokens: [token(T20, 'ERC-20', 'New')] })]);
  const addrs = await s.getAddresses([A, B, C, A]);
  t.same(
    [...addrs].sort((p, q) => (p.hash < q.hash ? -1 : 1)).map((a) => `${a.hash}:${a.name}`),
    [`${A}:a2`, `${B}:b1`],
  );
  t.notOk('blockNumber' in addrs[0], 'AddressRecord has no blockNumber');
  const tokens = await s.getTokens([T20, T721, T404]);
  t.equal(tokens.length, 2);
  t.same(tokens.find((k) => k.address === T20), { ...token(T20, 'ERC-20', 'New'), holdersCount: 2n });

  // the caller's input is copied: mutating it afterwards changes nothing
  (input.transactions as TransactionRecord[]).length = 0;
  (x.kinds as string[]).push('contract_call');
  t.same((await s.getTransaction(x.hash))?.kinds, ['coin_transfer']);
  // records handed out are frozen
  const got = await s.getTransaction(x.hash);
  t.throws(() => { (got as { value: bigint }).value = 5n; }, TypeError);
  t.throws(() => { (got?.kinds as string[]).push('x'); }, TypeError);
  const instance = await s.getTokenInstance({ tokenAddress: T721, tokenId: 1n });
  t.throws(() => { (instance?.metadata as Record<string, unknown>).name = 'evil'; }, TypeError);
  const list = await s.listTransactions({ status: 'validated' }, page());
  (list as TransactionRecord[]).length = 0;
  t.equal((await s.listTransactions({ status: 'validated' }, page())).length, 1, 'returned arrays are the caller’s own');
});
