/**
 * Every list endpoint walked page by page (small and default page sizes): each row exactly
 * once, in the endpoint's order, and as many rows as the fixture chain holds (counted straight
 * from its bundles — an oracle independent of any adapter).
 */
import type { Test } from 'tap';
// the records' unbranded address (the public `Address` is the typed client's branded one)
import type { Address } from '../../lib/domain/records.ts';
import type { BlockBundle, InternalTransactionRecord, TokenTransferRecord } from '../../lib/index.ts';
import type { FixtureChain } from '../../fixture/index.ts';
import { PING_PONG_ID, TOPICS, ZERO_ADDRESS } from '../../fixture/index.ts';
import type { Body, Loaded } from '../support/explorer.ts';
import { walk } from '../support/explorer.ts';

type Key = readonly (number | bigint | string)[];

interface WalkCase {
  readonly name: string;
  readonly path: string;
  readonly query?: Record<string, string>;
  /** identity of an item */
  readonly id: (item: Body) => string;
  /** sort key; items must be non-increasing (desc) or non-decreasing (asc) by it */
  readonly sortKey?: (item: Body) => Key;
  readonly direction?: 'asc' | 'desc';
  readonly expected: number;
  /** rows the fixture must give this list (default MIN_WALK_ROWS): one transaction's or block's lists are shorter */
  readonly minRows?: number;
}

const num = (v: unknown): number => v as number;
const big = (v: unknown): bigint => BigInt(v as string);
const hashOf = (a: unknown): string => ((a as Body)['hash'] as string).toLowerCase();

function compareKeys(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number | bigint | string;
    const y = b[i] as number | bigint | string;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

const isTopCall = (it: InternalTransactionRecord) => it.type === 'call' && it.index === 0;
const all = <T>(chain: FixtureChain, pick: (b: BlockBundle) => readonly T[]): T[] => chain.bundles.flatMap(pick);

/** Listed items of a transfer record: distinct ids of a batch, else one. */
function itemCount(r: TokenTransferRecord): number {
  return r.tokenIds.length > 1 ? new Set(r.tokenIds).size : 1;
}

/** Current balances (latest per holder/token/id) with value > 0, ERC-7984 any. */
function currentBalances(chain: FixtureChain, holder: Address) {
  const latest = new Map<string, { value: bigint; block: number; type: string }>();
  for (const b of all(chain, (x) => x.tokenBalances)) {
    if (b.holder !== holder) continue;
    const k = `${b.tokenAddress}:${b.tokenId ?? ''}`;
    const prev = latest.get(k);
    if (prev === undefined || prev.block <= b.blockNumber) latest.set(k, { value: b.value, block: b.blockNumber, type: b.tokenType });
  }
  return [...latest.values()].filter((b) => b.value > 0n || b.type === 'ERC-7984').length;
}

/** Addresses whose latest coin balance record (consensus blocks) is positive: the top accounts. */
export function positiveBalances(chain: FixtureChain): number {
  const latest = new Map<Address, { value: bigint; block: number }>();
  for (const b of chain.bundles) {
    if (!b.block.consensus) continue;
    for (const c of b.coinBalances) {
      const prev = latest.get(c.address);
      if (prev === undefined || prev.block <= c.blockNumber) latest.set(c.address, { value: c.value, block: c.blockNumber });
    }
  }
  return [...latest.values()].filter((x) => x.value > 0n).length;
}

/** Instances (with a row) the holder holds now: ERC-721 by its last transfer, others by a positive current balance. */
function heldInstances(chain: FixtureChain, holder: Address): number {
  const instances = new Map<string, string>();
  for (const i of all(chain, (b) => b.tokenInstances)) instances.set(`${i.tokenAddress}:${i.tokenId}`, i.tokenType);
  const owner = new Map<string, Address>();
  for (const r of all(chain, (b) => b.tokenTransfers)) if (r.tokenType === 'ERC-721') for (const id of r.tokenIds) owner.set(`${r.tokenAddress}:${id}`, r.to);
  const balance = new Map<string, { value: bigint; block: number }>();
  for (const b of all(chain, (x) => x.tokenBalances)) {
    if (b.holder !== holder || b.tokenId === null) continue;
    const k = `${b.tokenAddress}:${b.tokenId}`;
    const prev = balance.get(k);
    if (prev === undefined || prev.block <= b.blockNumber) balance.set(k, { value: b.value, block: b.blockNumber });
  }
  return [...instances].filter(([k, type]) => (type === 'ERC-721' ? owner.get(k) === holder : (balance.get(k)?.value ?? 0n) > 0n)).length;
}

/** The address's balance per block (the last record of a block), oldest first, with delta ≠ 0. */
export function coinChanges(chain: FixtureChain, address: Address): { blockNumber: number; value: bigint; delta: bigint }[] {
  const perBlock = new Map<number, bigint>();
  for (const c of all(chain, (b) => b.coinBalances)) if (c.address === address) perBlock.set(c.blockNumber, c.value);
  const out: { blockNumber: number; value: bigint; delta: bigint }[] = [];
  let previous = 0n;
  for (const [blockNumber, value] of [...perBlock].sort((a, b) => a[0] - b[0])) {
    if (value !== previous) out.push({ blockNumber, value, delta: value - previous });
    previous = value;
  }
  return out;
}

export function walkCases(chain: FixtureChain): WalkCase[] {
  const f = chain.facts;
  const internal = all(chain, (b) => b.internalTransactions).filter((it) => !isTopCall(it));
  const touches = (it: InternalTransactionRecord, a: Address) => it.from === a || it.to === a || it.createdContract === a;
  const transfers = all(chain, (b) => b.tokenTransfers);
  const internalKey = (i: Body): Key => [num(i['block_number']), num(i['transaction_index']), num(i['index'])];
  const internalId = (i: Body) => `${i['transaction_hash']}:${i['index']}`;
  const transferId = (i: Body) => `${i['transaction_hash']}:${i['log_index']}:${(i['total'] as Body | null)?.['token_id'] ?? ''}`;
  const transferKey = (i: Body): Key => [num(i['block_number']), num(i['log_index'])];
  const ofTx = <R extends { readonly transactionHash: string }>(rows: readonly R[], h: string) => rows.filter((r) => r.transactionHash === h);
  const tracesPerBlock = new Map<number, number>();
  for (const it of internal) tracesPerBlock.set(it.blockNumber, (tracesPerBlock.get(it.blockNumber) ?? 0) + 1);
  const busiestTraceBlock = [...tracesPerBlock.entries()].reduce((a, b) => (b[1] > a[1] ? b : a), [0, 0])[0];
  const txs = [...all(chain, (b) => b.transactions), ...chain.pending];
  const logs = all(chain, (b) => b.logs);
  const withdrawals = all(chain, (b) => b.withdrawals ?? []);
  const erin = f.eoas.erin;
  // pending first (block_number null sorts above every block), then block_number, position
  const txKey = (i: Body): Key => [i['block_number'] === null ? Number.MAX_SAFE_INTEGER : num(i['block_number']), i['position'] === null ? 0 : num(i['position'])];
  const logKey = (i: Body): Key => [num(i['block_number']), num(i['index'])];
  const transferItems = (pick: (r: TokenTransferRecord) => boolean) => transfers.filter(pick).reduce((n, r) => n + itemCount(r), 0);
  const latestTokens = [...new Map(all(chain, (b) => b.tokens).map((t) => [t.address, t])).values()];
  const latestAddresses = [...new Map(all(chain, (b) => b.addresses).map((a) => [a.hash, a])).values()];
  const prefixed = (s: string | null, p: string) => s !== null && s.toLowerCase().startsWith(p);
  const tokenId = (i: Body) => String(i['address_hash']);
  const tokenKey = (i: Body): Key => [big(i['holders_count'])];
  return [
    {
      name: 'address transactions (pending first)',
      path: `/addresses/${erin}/transactions`,
      id: (i) => String(i['hash']),
      sortKey: txKey,
      expected: txs.filter((x) => x.from === erin || x.to === erin || x.createdContract === erin).length,
    },
    {
      name: 'address transactions, sort=block_number&order=asc (pending last)',
      path: `/addresses/${erin}/transactions`,
      query: { sort: 'block_number', order: 'asc' },
      id: (i) => String(i['hash']),
      sortKey: txKey,
      direction: 'asc',
      expected: txs.filter((x) => x.from === erin || x.to === erin || x.createdContract === erin).length,
    },
    {
      name: 'address transactions, filter=from',
      path: `/addresses/${f.eoas.alice}/transactions`,
      query: { filter: 'from' },
      id: (i) => String(i['hash']),
      sortKey: txKey,
      expected: txs.filter((x) => x.from === f.eoas.alice).length,
    },
    {
      name: 'address transactions, filter=to',
      path: `/addresses/${erin}/transactions`,
      query: { filter: 'to' },
      id: (i) => String(i['hash']),
      sortKey: txKey,
      expected: txs.filter((x) => x.to === erin || x.createdContract === erin).length,
    },
    {
      name: 'address token transfers',
      path: `/addresses/${f.hotAddress}/token-transfers`,
      id: transferId,
      sortKey: transferKey,
      expected: transferItems((r) => r.from === f.hotAddress || r.to === f.hotAddress),
    },
    {
      name: 'address token transfers, filter=from (the zero address: every mint)',
      path: `/addresses/${ZERO_ADDRESS}/token-transfers`,
      query: { filter: 'from' },
      id: transferId,
      sortKey: transferKey,
      expected: transferItems((r) => r.from === ZERO_ADDRESS),
    },
    {
      name: 'address token transfers, filter=to',
      path: `/addresses/${f.hotAddress}/token-transfers`,
      query: { filter: 'to' },
      id: transferId,
      sortKey: transferKey,
      expected: transferItems((r) => r.to === f.hotAddress),
    },
    {
      name: 'address logs',
      path: `/addresses/${f.tokens.erc20}/logs`,
      id: (i) => `${i['transaction_hash']}:${i['index']}`,
      sortKey: logKey,
      expected: logs.filter((l) => l.address === f.tokens.erc20).length,
    },
    {
      name: 'address logs, topic=Transfer',
      path: `/addresses/${f.tokens.erc20}/logs`,
      query: { topic: TOPICS.transfer },
      id: (i) => `${i['transaction_hash']}:${i['index']}`,
      sortKey: logKey,
      expected: logs.filter((l) => l.address === f.tokens.erc20 && l.topics.includes(TOPICS.transfer)).length,
    },
    {
      name: 'address NFT instances',
      path: `/addresses/${f.hotAddress}/nft`,
      id: (i) => `${(i['token'] as Body)['address_hash']}:${i['id']}`,
      sortKey: (i) => {
        const token = i['token'] as Body;
        // type rank and contract ascending, then token id descending
        return [['ERC-721', 'ERC-1155', 'ERC-404'].indexOf(token['type'] as string), (token['address_hash'] as string).toLowerCase(), -big(i['id'])];
      },
      direction: 'asc',
      expected: heldInstances(chain, f.hotAddress),
    },
    {
      name: 'address coin balance history (the miner: a change in most blocks)',
      path: `/addresses/${f.miner}/coin-balance-history`,
      id: (i) => String(i['block_number']),
      sortKey: (i) => [num(i['block_number'])],
      expected: coinChanges(chain, f.miner).length,
    },
    {
      name: 'address internal transactions',
      path: `/addresses/${f.hotAddress}/internal-transactions`,
      id: internalId,
      sortKey: internalKey,
      expected: internal.filter((it) => touches(it, f.hotAddress)).length,
    },
    {
      name: 'address internal transactions, filter=from',
      path: `/addresses/${f.hotAddress}/internal-transactions`,
      query: { filter: 'from' },
      id: internalId,
      sortKey: internalKey,
      expected: internal.filter((it) => it.from === f.hotAddress).length,
    },
    {
      name: 'address internal transactions, filter=to',
      path: `/addresses/${f.hotAddress}/internal-transactions`,
      query: { filter: 'to' },
      id: internalId,
      sortKey: internalKey,
      expected: internal.filter((it) => it.to === f.hotAddress || it.createdContract === f.hotAddress).length,
    },
    {
      name: 'address tokens',
      path: `/addresses/${f.hotAddress}/tokens`,
      id: (i) => `${(i['token'] as Body)['address_hash']}:${i['token_id']}`,
      sortKey: (i) => [big(i['value'])],
      expected: currentBalances(chain, f.hotAddress),
    },
    {
      name: 'address NFT collections',
      path: `/addresses/${f.hotAddress}/nft/collections`,
      id: (i) => String((i['token'] as Body)['address_hash']),
      sortKey: (i) => {
        const token = i['token'] as Body;
        return [['ERC-721', 'ERC-1155', 'ERC-404'].indexOf(token['type'] as string), (token['address_hash'] as string).toLowerCase()];
      },
      direction: 'asc',
      expected: f.counts.hotNftCollections,
    },
    {
      name: 'address blocks validated',
      path: `/addresses/${f.miner}/blocks-validated`,
      id: (i) => String(i['hash']),
      sortKey: (i) => [num(i['height'])],
      expected: chain.bundles.filter((b) => b.block.miner === f.miner).length,
    },
    {
      name: 'transactions (validated)',
      path: '/transactions',
      id: (i) => String(i['hash']),
      sortKey: (i) => [num(i['block_number']), num(i['position'])],
      expected: all(chain, (b) => b.transactions).length,
    },
    {
      name: 'transactions (pending)',
      path: '/transactions',
      query: { filter: 'pending' },
      id: (i) => String(i['hash']),
      expected: chain.pending.length,
    },
    {
      name: 'transaction state changes',
      path: `/transactions/${f.transactions.manyStateChanges}/state-changes`,
      id: (i) => `${hashOf(i['address'])}:${(i['token'] as Body | null)?.['address_hash'] ?? 'coin'}:${i['token_id']}`,
      expected: all(chain, (b) => b.stateChanges).filter((s) => s.transactionHash === f.transactions.manyStateChanges).length,
    },
    {
      name: 'transaction logs',
      path: `/transactions/${f.transactions.manyLogs}/logs`,
      id: (i) => String(i['index']),
      sortKey: (i) => [num(i['index'])],
      direction: 'asc',
      expected: all(chain, (b) => b.logs).filter((l) => l.transactionHash === f.transactions.manyLogs).length,
    },
    {
      name: 'token transfers of a transaction (the airdrop)',
      path: `/transactions/${f.transactions.manyLogs}/token-transfers`,
      id: transferId,
      sortKey: (i) => [num(i['log_index'])],
      direction: 'asc',
      expected: ofTx(transfers, f.transactions.manyLogs).reduce((n, r) => n + itemCount(r), 0),
      minRows: 60,
    },
    {
      name: 'token transfers of a transaction, one ERC-1155 batch split over pages',
      path: `/transactions/${f.transactions.erc1155LargeBatch}/token-transfers`,
      id: transferId,
      expected: ofTx(transfers, f.transactions.erc1155LargeBatch).reduce((n, r) => n + itemCount(r), 0),
      minRows: 12,
    },
    {
      name: 'internal transactions of a transaction (trace order)',
      path: `/transactions/${f.transactions.manyLogs}/internal-transactions`,
      id: internalId,
      sortKey: (i) => [num(i['index'])],
      direction: 'asc',
      expected: ofTx(internal, f.transactions.manyLogs).length,
      minRows: 60,
    },
    {
      name: 'transactions of the busiest block (by position)',
      path: `/blocks/${f.busiestBlock}/transactions`,
      id: (i) => String(i['hash']),
      sortKey: (i) => [num(i['position'])],
      direction: 'asc',
      expected: all(chain, (b) => b.transactions).filter((x) => x.blockNumber === f.busiestBlock).length,
      minRows: 20,
    },
    {
      name: 'internal transactions of the block with the most traces',
      path: `/blocks/${busiestTraceBlock}/internal-transactions`,
      id: internalId,
      sortKey: (i) => [num(i['transaction_index']), num(i['index'])],
      direction: 'asc',
      expected: internal.filter((it) => it.blockNumber === busiestTraceBlock).length,
      minRows: 60,
    },
    {
      name: 'internal transactions',
      path: '/internal-transactions',
      id: internalId,
      sortKey: internalKey,
      expected: internal.length,
    },
    {
      name: 'token transfers',
      path: '/token-transfers',
      id: transferId,
      sortKey: transferKey,
      expected: transfers.reduce((n, r) => n + itemCount(r), 0),
    },
    {
      name: 'token transfers, type=ERC-1155',
      path: '/token-transfers',
      query: { type: 'ERC-1155' },
      id: transferId,
      sortKey: transferKey,
      expected: transfers.filter((r) => r.tokenType === 'ERC-1155').reduce((n, r) => n + itemCount(r), 0),
    },
    {
      name: 'token instances',
      path: `/tokens/${f.instancesToken}/instances`,
      id: (i) => String(i['id']),
      sortKey: (i) => [big(i['id'])],
      expected: new Set(all(chain, (b) => b.tokenInstances).filter((x) => x.tokenAddress === f.instancesToken).map((x) => x.tokenId)).size,
    },
    {
      name: 'transfers of a token',
      path: `/tokens/${f.busyToken}/transfers`,
      id: transferId,
      sortKey: transferKey,
      expected: transfers.filter((r) => r.tokenAddress === f.busyToken).reduce((n, r) => n + itemCount(r), 0),
    },
    {
      name: 'transfers of an ERC-1155 token (batches split across pages)',
      path: `/tokens/${f.tokens.erc1155}/transfers`,
      id: transferId,
      sortKey: transferKey,
      expected: transfers.filter((r) => r.tokenAddress === f.tokens.erc1155).reduce((n, r) => n + itemCount(r), 0),
    },
    {
      name: 'transfers of one NFT instance',
      path: `/tokens/${f.tokens.erc1155}/instances/${PING_PONG_ID}/transfers`,
      id: transferId,
      sortKey: transferKey,
      expected: transfers.filter((r) => r.tokenAddress === f.tokens.erc1155 && r.tokenIds.includes(PING_PONG_ID)).length,
    },
    ...hotContractWalks(chain),
    {
      name: 'withdrawals (index DESC)',
      path: '/withdrawals',
      id: (i) => String(i['index']),
      sortKey: (i) => [num(i['index'])],
      expected: withdrawals.length,
    },
    {
      name: 'withdrawals to the busiest recipient',
      path: `/addresses/${f.withdrawals.busiestRecipient}/withdrawals`,
      id: (i) => String(i['index']),
      sortKey: (i) => [num(i['index'])],
      expected: withdrawals.filter((w) => w.address === f.withdrawals.busiestRecipient).length,
      minRows: 51,
    },
    {
      name: 'withdrawals of the block with the most',
      path: `/blocks/${f.withdrawals.busiestBlock}/withdrawals`,
      id: (i) => String(i['index']),
      sortKey: (i) => [num(i['index'])],
      expected: withdrawals.filter((w) => w.blockNumber === f.withdrawals.busiestBlock).length,
      minRows: 16,
    },
    {
      name: 'top accounts (balance DESC, hash ASC)',
      path: '/addresses',
      id: (i) => String(i['hash']),
      sortKey: (i) => [big(i['coin_balance'])],
      expected: positiveBalances(chain),
    },
    {
      name: 'top accounts, sort=balance&order=asc',
      path: '/addresses',
      query: { sort: 'balance', order: 'asc' },
      id: (i) => String(i['hash']),
      sortKey: (i) => [big(i['coin_balance'])],
      direction: 'asc',
      expected: positiveBalances(chain),
    },
    {
      name: 'top accounts, sort=transactions_count&order=desc',
      path: '/addresses',
      query: { sort: 'transactions_count', order: 'desc' },
      id: (i) => String(i['hash']),
      sortKey: (i) => [big(i['transactions_count']), big(i['coin_balance'])],
      expected: positiveBalances(chain),
    },
    {
      name: 'top accounts, sort=transactions_count&order=asc',
      path: '/addresses',
      query: { sort: 'transactions_count', order: 'asc' },
      id: (i) => String(i['hash']),
      sortKey: (i) => [big(i['transactions_count'])],
      direction: 'asc',
      expected: positiveBalances(chain),
    },
    {
      name: 'tokens (holders DESC, ties by name and address)',
      path: '/tokens/',
      id: tokenId,
      sortKey: tokenKey,
      expected: latestTokens.length,
    },
    {
      name: 'tokens, q=bulk (a prefix shared by most tokens)',
      path: '/tokens/',
      query: { q: 'bulk' },
      id: tokenId,
      sortKey: tokenKey,
      expected: latestTokens.filter((t) => prefixed(t.name, 'bulk') || prefixed(t.symbol, 'bulk')).length,
    },
    {
      name: 'tokens, q=bulk&type=ERC-20,ERC-721 (a prefix within types)',
      path: '/tokens/',
      query: { q: 'bulk', type: 'ERC-20,ERC-721' },
      id: tokenId,
      sortKey: tokenKey,
      expected: latestTokens.filter((t) => (t.type === 'ERC-20' || t.type === 'ERC-721') && (prefixed(t.name, 'bulk') || prefixed(t.symbol, 'bulk'))).length,
    },
    {
      name: 'tokens, type=ERC-20,ERC-404',
      path: '/tokens',
      query: { type: 'ERC-20,ERC-404' },
      id: tokenId,
      sortKey: tokenKey,
      expected: latestTokens.filter((t) => t.type === 'ERC-20' || t.type === 'ERC-404').length,
    },
    {
      name: 'tokens, sort=holders_count&order=asc',
      path: '/tokens/',
      query: { sort: 'holders_count', order: 'asc' },
      id: tokenId,
      sortKey: tokenKey,
      direction: 'asc',
      expected: latestTokens.length,
    },
    {
      name: 'search, q=bulk (tokens, then contracts)',
      path: '/search',
      query: { q: 'bulk' },
      id: (i) => `${i['type']}:${i['address_hash']}`,
      sortKey: (i) => [num(i['priority'])],
      expected:
        latestTokens.filter((t) => prefixed(t.name, 'bulk') || prefixed(t.symbol, 'bulk')).length +
        latestAddresses.filter((a) => a.isContract && prefixed(a.name, 'bulk')).length,
    },
    {
      name: 'blocks',
      path: '/blocks',
      id: (i) => String(i['hash']),
      sortKey: (i) => [num(i['height'])],
      expected: chain.bundles.filter((b) => b.block.consensus).length,
    },
    {
      name: 'smart contracts (every creation, newest first)',
      path: '/smart-contracts',
      id: (i) => hashOf(i['address']),
      expected: all(chain, (b) => b.contractCodes ?? []).length,
    },
    {
      name: 'smart contracts, q = an address prefix',
      path: '/smart-contracts',
      query: { q: 'B0000000000000000000000000000000000010' },
      id: (i) => hashOf(i['address']),
      expected: all(chain, (b) => b.contractCodes ?? []).filter((c) => c.address.includes('b0000000000000000000000000000000000010')).length,
      minRows: 20,
    },
  ];
}

/**
 * Hot contracts over the whole fixture chain (the suite's clock puts every block inside the
 * 3h and 1d windows): the consensus transactions' `to` addresses whose latest address record
 * has code, counted straight from the bundles.
 */
function hotContractWalks(chain: FixtureChain): WalkCase[] {
  const code = new Map<Address, boolean>();
  for (const b of chain.bundles) if (b.block.consensus) for (const a of b.addresses) code.set(a.hash, a.isContract);
  const called = new Set<Address>();
  for (const b of chain.bundles) {
    if (!b.block.consensus) continue;
    for (const t of b.transactions) if (t.to !== null && code.get(t.to) === true) called.add(t.to);
  }
  const base = {
    path: '/stats/hot-smart-contracts',
    id: (i: Body) => hashOf(i['contract_address']),
    expected: called.size,
    minRows: 10,
  };
  return [
    { ...base, name: 'hot contracts, 1d (count, gas, contract)', query: { scale: '1d' }, sortKey: (i) => [num(i['transactions_count']), num(i['total_gas_used'])] },
    {
      ...base,
      name: 'hot contracts, 3h, sort=total_gas_used&order=asc',
      query: { scale: '3h', sort: 'total_gas_used', order: 'asc' },
      sortKey: (i) => [num(i['total_gas_used']), num(i['transactions_count'])],
      direction: 'asc',
    },
  ];
}

export async function walkSuite(t: Test, loaded: Loaded): Promise<void> {
  for (const c of walkCases(loaded.chain)) {
    await t.test(c.name, async (t) => {
      const small = await walk(loaded.explorer, `/api/v2${c.path}`, { ...c.query, items_count: '7' });
      const normal = await walk(loaded.explorer, `/api/v2${c.path}`, { ...c.query });
      const ids = small.items.map(c.id);
      t.equal(new Set(ids).size, ids.length, 'every row appears once');
      t.equal(ids.length, c.expected, `all ${c.expected} rows are listed`);
      const min = c.minRows ?? MIN_WALK_ROWS;
      t.ok(c.expected >= min, `the fixture gives this list ≥ ${min} rows`);
      t.same(normal.items.map(c.id), ids, 'the same rows in the same order at page size 50');
      t.equal(small.pages, Math.max(1, Math.ceil(c.expected / 7)), 'full pages of 7 until the last');
      if (c.sortKey !== undefined) {
        const keys = small.items.map(c.sortKey);
        const bad = keys.findIndex((k, i) => i > 0 && compareKeys(keys[i - 1] as Key, k) * (c.direction === 'asc' ? -1 : 1) < 0);
        t.equal(bad, -1, `ordered ${c.direction ?? 'desc'}${bad >= 0 ? ` (breaks at row ${bad})` : ''}`);
      }
    });
  }
}

/** The issue asks for ≥ 120 rows with ties in every walk; the fixture must keep providing them. */
export const MIN_WALK_ROWS = 120;
