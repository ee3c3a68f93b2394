/**
 * Record builders for the port suite: tiny, valid records whose hashes and addresses follow
 * from a tag or a number, a bundle with empty parts, and a cursor walk over any list.
 */
import type {
  Address,
  AddressWrite,
  BlockBundle,
  BlockRecord,
  Hash,
  InternalTransactionRecord,
  LogRecord,
  TokenBalanceRecord,
  TokenInstanceWrite,
  TokenRecord,
  TokenTransferRecord,
  TokenType,
  TransactionRecord,
} from '../../lib/domain/records.ts';
import { address as markAddress, EMPTY_HEX, hash, hex } from '../../lib/domain/hex.ts';
import type { Test } from 'tap';
import type { Order, Page } from '../../lib/ports.ts';

// ---- tiny record builders -------------------------------------------------------------------

export const addr = (n: number): Address => markAddress(`0x${n.toString(16).padStart(40, '0')}`);
export const h32 = (tag: string): Hash => hash(`0x${Buffer.from(tag).toString('hex').padStart(64, '0').slice(-64)}`);
export const ZERO = addr(0);
export const A = addr(0xa);
export const B = addr(0xb);
export const C = addr(0xc);
export const MINER = addr(0x99);
export const T20 = addr(0x2020);
export const T721 = addr(0x721);
export const T1155 = addr(0x1155);
export const T404 = addr(0x404);

export function block(number: number, o: { tag?: string; consensus?: boolean; miner?: Address } = {}): BlockRecord {
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
    nonce: hex('0x0000000000000000'),
    extraData: EMPTY_HEX,
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

export function tx(b: BlockRecord | null, index: number, o: Partial<TransactionRecord> & { tag?: string } = {}): TransactionRecord {
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
    input: EMPTY_HEX,
    methodId: null,
    insertedAt: 1000,
    kinds: [],
    hasErrorInInternalTransactions: null,
    ...rest,
  };
}

export function itx(
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

export function log(parent: TransactionRecord, index: number, emitter: Address = T20): LogRecord {
  return {
    transactionHash: parent.hash,
    blockHash: parent.blockHash ?? h32('none'),
    blockNumber: parent.blockNumber ?? 0,
    transactionIndex: parent.index ?? 0,
    index,
    timestamp: parent.timestamp ?? 0,
    address: emitter,
    topics: [],
    data: EMPTY_HEX,
  };
}

export function transfer(
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

export function token(address: Address, type: TokenType, name = 'Tok'): TokenRecord {
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

export function bal(b: BlockRecord, holder: Address, tokenAddress: Address, tokenType: TokenType, value: bigint, tokenId: bigint | null = null): TokenBalanceRecord {
  return { holder, tokenAddress, tokenType, tokenId, blockNumber: b.number, value };
}

export function inst(b: BlockRecord, tokenAddress: Address, tokenType: TokenType, tokenId: bigint, name = `#${tokenId}`): TokenInstanceWrite {
  return { tokenAddress, tokenType, tokenId, metadata: { name }, blockNumber: b.number };
}

export function address(b: BlockRecord, hash: Address, name: string | null): AddressWrite {
  return { hash, isContract: false, name, creationTransactionHash: null, creatorAddress: null, blockNumber: b.number };
}

export function bundle(b: BlockRecord, parts: Partial<Omit<BlockBundle, 'block'>> = {}): BlockBundle {
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
export async function walk<R, C>(list: (after: C | null, limit: number) => Promise<readonly R[]>, cursorOf: (r: R) => C, limit: number): Promise<R[]> {
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

export const page = <C>(after: C | null = null, limit = 100, order: Order = 'desc') => ({ after, limit, order });

/**
 * Walk a list to its end at several page sizes in both orders: the 'desc' walk must give
 * `expected` (keys in order), the 'asc' walk its exact reverse.
 */
export async function walksBothWays<R, C>(
  t: Test,
  label: string,
  list: (page: Page<C>) => Promise<readonly R[]>,
  cursorOf: (r: R) => C,
  key: (r: R) => string,
  expected: readonly string[],
  limits: readonly number[] = [1, 2, 100],
): Promise<void> {
  for (const order of ['desc', 'asc'] as const) {
    const want = order === 'desc' ? [...expected] : [...expected].reverse();
    for (const limit of limits) {
      const got = await walk<R, C>((after, l) => list({ after, limit: l, order }), cursorOf, limit);
      t.same(got.map(key), want, `${label}: ${order} walk, ${limit} a page`);
    }
  }
}
