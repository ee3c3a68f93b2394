/**
 * /advanced-filters walks: the merged stream of transactions, internal transactions and token
 * transfer entries, counted by an oracle over the fixture chain's bundles (independent of any
 * adapter and of lib/advanced), for each filter.
 */
import type { Address, BlockBundle, Hex } from '../../lib/index.ts';
import type { FixtureChain } from '../../fixture/index.ts';
import type { Body } from '../support/explorer.ts';

type Key = readonly (number | bigint | string)[];

export interface AdvancedWalkCase {
  readonly name: string;
  readonly path: string;
  readonly query?: Record<string, string>;
  readonly id: (item: Body) => string;
  readonly sortKey?: (item: Body) => Key;
  readonly expected: number;
  readonly minRows?: number;
}

/** One item of the oracle's stream. */
export interface OracleItem {
  readonly kind: 'transaction' | 'internal' | 'transfer';
  readonly hash: string;
  readonly block: number;
  readonly timestamp: number;
  readonly from: Address;
  readonly to: Address | null;
  readonly value: bigint | null;
  readonly methodId: Hex | null;
  readonly tokenType: string | null;
  readonly tokenAddress: Address | null;
}

/** Every item of the unfiltered stream, from the consensus bundles. */
export function oracleItems(chain: FixtureChain): OracleItem[] {
  const bundles: BlockBundle[] = chain.bundles.filter((b) => b.block.consensus);
  const out: OracleItem[] = [];
  for (const b of bundles) {
    for (const tx of b.transactions) {
      out.push({ kind: 'transaction', hash: tx.hash, block: b.block.number, timestamp: b.block.timestamp, from: tx.from, to: tx.to, value: tx.value, methodId: tx.methodId, tokenType: null, tokenAddress: null });
    }
    for (const it of b.internalTransactions) {
      if (it.type === 'call' && it.index === 0) continue;
      out.push({ kind: 'internal', hash: it.transactionHash, block: b.block.number, timestamp: b.block.timestamp, from: it.from, to: it.to, value: it.value, methodId: null, tokenType: null, tokenAddress: null });
    }
    for (const tt of b.tokenTransfers) {
      const entries = tt.tokenIds.length > 1 || tt.amounts.length > 1 ? Math.max(tt.tokenIds.length, tt.amounts.length) : 1;
      for (let i = 0; i < entries; i++) {
        out.push({ kind: 'transfer', hash: tt.transactionHash, block: b.block.number, timestamp: b.block.timestamp, from: tt.from, to: tt.to, value: null, methodId: tt.methodId, tokenType: tt.tokenType, tokenAddress: tt.tokenAddress });
      }
    }
  }
  return out;
}

const num = (v: unknown): number => v as number;
/** [block, transaction index, rank (tx 2, transfer 1, internal 0), sub index, batch index] */
export const advancedKey = (i: Body): Key => {
  const it = i['internal_transaction_index'];
  const tt = i['token_transfer_index'];
  const rank = it !== null ? 0 : tt !== null ? 1 : 2;
  return [num(i['block_number']), num(i['transaction_index']), rank, it !== null ? num(it) : tt !== null ? num(tt) : 0, num(i['token_transfer_batch_index'] ?? 0)];
};
export const advancedId = (i: Body): string => advancedKey(i).join(':');

const iso = (s: number): string => new Date(s * 1000).toISOString();

export function advancedWalkCases(chain: FixtureChain): AdvancedWalkCase[] {
  const f = chain.facts;
  const items = oracleItems(chain);
  const count = (keep: (i: OracleItem) => boolean) => items.filter(keep).length;
  const hot = f.hotAddress;
  const c = (name: string, query: Record<string, string>, keep: (i: OracleItem) => boolean, minRows?: number): AdvancedWalkCase => ({
    name: `advanced filters, ${name}`,
    path: '/advanced-filters',
    query,
    id: advancedId,
    sortKey: advancedKey,
    expected: count(keep),
    ...(minRows === undefined ? {} : { minRows }),
  });
  const blocks = [...new Set(items.map((i) => i.block))].sort((a, b) => a - b);
  const lo = blocks[Math.floor(blocks.length / 4)] as number;
  const hi = blocks[Math.floor((blocks.length * 3) / 4)] as number;
  const tsOf = (n: number) => chain.bundles.find((b) => b.block.consensus && b.block.number === n)?.block.timestamp ?? 0;
  const [from, to] = [tsOf(lo), tsOf(hi)];
  const oneEth = 10n ** 18n;
  return [
    c('no filter', {}, () => true),
    c('from or to the hot address', { from_address_hashes_to_include: hot, to_address_hashes_to_include: hot }, (i) => i.from === hot || i.to === hot),
    c('from the hot address, excluding transfers to alice', { from_address_hashes_to_include: hot, to_address_hashes_to_exclude: f.eoas.alice, address_relation: 'AND' }, (i) => i.from === hot && i.to !== null && i.to !== f.eoas.alice),
    c('not from the hot address', { from_address_hashes_to_exclude: hot }, (i) => i.from !== hot),
    c('ERC-1155 and ERC-721 transfers', { transaction_types: 'erc-1155,ERC-721' }, (i) => i.tokenType === 'ERC-1155' || i.tokenType === 'ERC-721'),
    c('coin transfers (value > 0)', { transaction_types: 'COIN_TRANSFER' }, (i) => i.kind !== 'transfer' && (i.value ?? 0n) > 0n),
    c('methods transfer (selector and name)', { methods: '0xA9059CBB,bad', methods_names: 'approve' }, (i) => i.kind !== 'internal' && (i.methodId === '0xa9059cbb' || i.methodId === '0x095ea7b3'), 60),
    c('the ERC-20 token and native coin', { token_contract_address_hashes_to_include: `native,${f.tokens.erc20}` }, (i) => i.kind !== 'transfer' || i.tokenAddress === f.tokens.erc20),
    c('age window', { age_from: iso(from), age_to: iso(to) }, (i) => i.timestamp >= from && i.timestamp <= to),
    c(
      'coin amount from 0.5 to 2 whole units',
      { amount_from: '0.5', amount_to: '2', token_contract_address_hashes_to_include: 'native' },
      (i) => i.kind !== 'transfer' && (i.value ?? 0n) * 2n >= oneEth && (i.value ?? 0n) <= 2n * oneEth,
      1,
    ),
  ];
}
