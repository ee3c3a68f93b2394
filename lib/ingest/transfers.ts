/**
 * Token transfer events: ERC-20 / ERC-721 `Transfer` (3 vs 4 topics), ERC-1155 `TransferSingle`
 * and `TransferBatch`, decoded with viem's decodeEventLog. Pure.
 */
import { decodeEventLog, parseAbi, toEventSelector } from 'viem';
import type { Address, Hash, Hex } from '../domain/records.ts';
import type { SourceLog } from '../chain-source.ts';

export const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');
export const TRANSFER_SINGLE_TOPIC = toEventSelector('TransferSingle(address,address,address,uint256,uint256)');
export const TRANSFER_BATCH_TOPIC = toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])');


const ERC20_ABI = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const ERC721_ABI = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)']);
const ERC1155_ABI = parseAbi([
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);

/** The token standard an event's shape implies. */
export type TransferShape = 'erc20' | 'erc721' | 'erc1155';

/** A transfer event as decoded from its log, before the token's type is known. */
export interface DecodedTransfer {
  readonly shape: TransferShape;
  readonly token: Address;
  readonly transactionHash: Hash;
  readonly transactionIndex: number;
  readonly logIndex: number;
  readonly from: Address;
  readonly to: Address;
  /** ERC-20 value, ERC-1155 single amount; null for ERC-721 and batches */
  readonly amount: bigint | null;
  readonly tokenIds: readonly bigint[];
  /** ERC-1155 batch amounts; empty otherwise */
  readonly amounts: readonly bigint[];
}

const lower = (a: string): Address => a.toLowerCase() as Address;

/** Decode one log; null when it is no token transfer (or malformed). */
export function decodeTransfer(log: SourceLog): DecodedTransfer | null {
  const topic0 = log.topics[0];
  if (topic0 === undefined) return null;
  const base = {
    token: log.address,
    transactionHash: log.transactionHash,
    transactionIndex: log.transactionIndex,
    logIndex: log.logIndex,
  };
  const topics = [...log.topics] as [Hex, ...Hex[]];
  try {
    if (topic0 === TRANSFER_TOPIC && log.topics.length === 3) {
      const { args } = decodeEventLog({ abi: ERC20_ABI, topics, data: log.data, strict: true });
      return { ...base, shape: 'erc20', from: lower(args.from), to: lower(args.to), amount: args.value, tokenIds: [], amounts: [] };
    }
    if (topic0 === TRANSFER_TOPIC && log.topics.length === 4) {
      const { args } = decodeEventLog({ abi: ERC721_ABI, topics, data: log.data, strict: true });
      return { ...base, shape: 'erc721', from: lower(args.from), to: lower(args.to), amount: null, tokenIds: [args.tokenId], amounts: [] };
    }
    if (topic0 === TRANSFER_SINGLE_TOPIC && log.topics.length === 4) {
      const decoded = decodeEventLog({ abi: ERC1155_ABI, eventName: 'TransferSingle', topics, data: log.data, strict: true });
      const { args } = decoded;
      return { ...base, shape: 'erc1155', from: lower(args.from), to: lower(args.to), amount: args.value, tokenIds: [args.id], amounts: [] };
    }
    if (topic0 === TRANSFER_BATCH_TOPIC && log.topics.length === 4) {
      const { args } = decodeEventLog({ abi: ERC1155_ABI, eventName: 'TransferBatch', topics, data: log.data, strict: true });
      if (args.ids.length !== args.values.length) return null;
      return {
        ...base,
        shape: 'erc1155',
        from: lower(args.from),
        to: lower(args.to),
        amount: null,
        tokenIds: [...args.ids],
        amounts: [...args.values],
      };
    }
  } catch {
    return null;
  }
  return null;
}

export function decodeTransfers(logs: readonly SourceLog[]): DecodedTransfer[] {
  const out: DecodedTransfer[] = [];
  for (const log of logs) {
    const t = decodeTransfer(log);
    if (t !== null) out.push(t);
  }
  return out;
}

/** The (token id, amount) legs of a transfer: ERC-721 counts 1 per id, ERC-20 has one leg without id. */
export function transferLegs(t: DecodedTransfer): { readonly id: bigint | null; readonly amount: bigint }[] {
  switch (t.shape) {
    case 'erc20':
      return [{ id: null, amount: t.amount ?? 0n }];
    case 'erc721':
      return [{ id: null, amount: 1n }];
    case 'erc1155':
      if (t.amounts.length > 0) return t.tokenIds.map((id, i) => ({ id, amount: t.amounts[i] ?? 0n }));
      return t.tokenIds.map((id) => ({ id, amount: t.amount ?? 0n }));
  }
}
