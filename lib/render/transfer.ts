/**
 * The TokenTransfer object, and ERC-1155 batch flattening: a stored batch becomes one item per
 * distinct token id (repeated ids merged, amounts summed), listed in descending batch position.
 */
import type { Address, TokenTransferRecord } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { Total, TotalERC1155, TotalERC721, TokenTransfer } from '../schema/transfer.ts';
import { renderAddress } from './address.ts';
import type { RenderContext } from './context.ts';
import { instanceKey } from './context.ts';
import { checksum, dec, isoOrNull } from './format.ts';
import { ZERO_ADDRESS } from '../domain/hex.ts';
import { renderInstance } from './instance.ts';
import type { InstanceJson } from './instance.ts';
import { knownMethodName } from './decode.ts';
import { renderToken, unknownToken } from './token.ts';

/** One listed item: a stored transfer, or one id of an ERC-1155 batch. */
export interface TransferItem {
  readonly record: TokenTransferRecord;
  readonly tokenId: bigint | null;
  readonly amount: bigint | null;
  /** position in the batch (distinct ids in first-seen order); null for non-batch transfers */
  readonly indexInBatch: number | null;
}

export const isBatch = (r: TokenTransferRecord): boolean => r.tokenIds.length > 1 || r.amounts.length > 1;

/** Items of one record, in listing order (batches: highest index_in_batch first). */
export function expandTransfer(record: TokenTransferRecord, onlyTokenId?: bigint): TransferItem[] {
  if (!isBatch(record)) {
    return [{ record, tokenId: record.tokenIds[0] ?? null, amount: record.amount ?? record.amounts[0] ?? null, indexInBatch: null }];
  }
  const merged = new Map<bigint, { amount: bigint; position: number }>();
  record.tokenIds.forEach((id, i) => {
    const amount = record.amounts[i] ?? 0n;
    const prev = merged.get(id);
    if (prev) prev.amount += amount;
    else merged.set(id, { amount, position: merged.size });
  });
  const items: TransferItem[] = [];
  for (const [id, { amount, position }] of merged) {
    if (onlyTokenId !== undefined && id !== onlyTokenId) continue;
    items.push({ record, tokenId: id, amount, indexInBatch: position });
  }
  return items.reverse();
}

/** The TokenTransfer object as the API writes it, and its `total`. */
export type TransferJson = t.OutputOf<typeof TokenTransfer>;
export type TotalJson = t.OutputOf<typeof TotalERC721> | t.OutputOf<typeof TotalERC1155> | t.OutputOf<typeof Total>;

export function transferType(from: Address, to: Address): TransferJson['type'] {
  const fromZero = from === ZERO_ADDRESS;
  const toZero = to === ZERO_ADDRESS;
  if (fromZero && toZero) return 'token_spawning';
  if (fromZero) return 'token_minting';
  if (toZero) return 'token_burning';
  return 'token_transfer';
}

export function renderTotal(item: TransferItem, ctx: RenderContext): TotalJson | null {
  const r = item.record;
  const token = ctx.tokens.get(r.tokenAddress);
  const decimals = token?.decimals === null || token?.decimals === undefined ? null : dec(token.decimals);
  const instanceOf = (id: bigint): InstanceJson | null => {
    const inst = ctx.instances.get(instanceKey({ tokenAddress: r.tokenAddress, tokenId: id }));
    return inst === undefined ? null : renderInstance(inst, ctx, { token: token ?? null, withOwner: true });
  };
  switch (r.tokenType) {
    case 'ERC-721':
      return { token_id: item.tokenId === null ? null : dec(item.tokenId), token_instance: item.tokenId === null ? null : instanceOf(item.tokenId) };
    case 'ERC-1155':
      return {
        decimals,
        token_id: item.tokenId === null ? null : dec(item.tokenId),
        token_instance: item.tokenId === null ? null : instanceOf(item.tokenId),
        value: item.amount === null ? null : dec(item.amount),
      };
    case 'ERC-404':
      if (item.tokenId !== null) {
        return {
          decimals,
          token_id: dec(item.tokenId),
          token_instance: instanceOf(item.tokenId),
          value: item.amount === null ? null : dec(item.amount),
        };
      }
      return item.amount === null ? null : { decimals, value: dec(item.amount) };
    case 'ERC-7984':
      return { decimals, value: null };
    case 'ERC-20':
      return item.amount === null ? null : { decimals, value: dec(item.amount) };
  }
}

export function renderTransfer(item: TransferItem, ctx: RenderContext): TransferJson {
  const r = item.record;
  const token = ctx.tokens.get(r.tokenAddress) ?? unknownToken(r.tokenAddress, r.tokenType);
  return {
    block_hash: r.blockHash,
    block_number: r.blockNumber,
    from: renderAddress(r.from, ctx),
    log_index: r.logIndex,
    method: knownMethodName(r.methodId, ctx.abis) ?? r.methodId,
    timestamp: isoOrNull(r.timestamp),
    to: renderAddress(r.to, ctx),
    token: renderToken(token),
    token_type: r.tokenType,
    total: renderTotal(item, ctx),
    transaction_hash: r.transactionHash,
    type: transferType(r.from, r.to),
  };
}

/** Addresses, tokens and instances a list of transfer items references. */
export function transferRefs(items: readonly TransferItem[]) {
  return {
    addresses: items.flatMap((i) => [i.record.from, i.record.to]),
    tokens: items.map((i) => i.record.tokenAddress),
    instances: items.flatMap((i) => (i.tokenId === null ? [] : [{ tokenAddress: i.record.tokenAddress, tokenId: i.tokenId }])),
  };
}

