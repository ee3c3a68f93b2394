/** Summary inputs built by code for the rules' unit tests: an actor, a router, two tokens. */
import type { AbiFunction } from 'viem';
import { concatHex, encodeAbiParameters, parseAbiItem, toFunctionSelector } from 'viem';
import type { Address, Hex, TokenRecord, TokenType } from '../../../lib/domain/records.ts';
import type { DecodedCall } from '../../../lib/decode/decoder.ts';
import type { SummaryInput, SummaryInternal, SummaryLog, SummaryTransaction, SummaryTransfer } from '../../../lib/summary/types.ts';
import { address, EMPTY_HEX, hex } from '../../../lib/domain/hex.ts';

export const addr = (n: number): Address => address(`0x${n.toString(16).padStart(40, '0')}`);
export const ZERO = addr(0);
export const ALICE = addr(0xa11ce);
export const BOB = addr(0xb0b);
export const ROUTER = addr(0x707);
export const POOL = addr(0x9001);
export const USD = addr(0x05d);
export const WETH = addr(0xe7);
export const PUNK = addr(0x721);
export const ITEM = addr(0x1155);

export function tok(address: Address, type: TokenType, symbol: string, decimals: bigint | null): TokenRecord {
  return { address, type, name: symbol, symbol, decimals, totalSupply: null, holdersCount: 0n, iconUrl: null, exchangeRate: null };
}
export const TOKENS: ReadonlyMap<Address, TokenRecord> = new Map([
  [USD, tok(USD, 'ERC-20', 'USD', 6n)],
  [WETH, tok(WETH, 'ERC-20', 'WETH', 18n)],
  [PUNK, tok(PUNK, 'ERC-721', 'PUNK', null)],
  [ITEM, tok(ITEM, 'ERC-1155', 'ITEM', null)],
]);

export function fungible(tokenAddress: Address, from: Address, to: Address, amount: bigint): SummaryTransfer {
  return { from, to, tokenAddress, tokenType: 'ERC-20', amount, tokenIds: [], amounts: [] };
}
export function nft(tokenAddress: Address, tokenType: TokenType, from: Address, to: Address, ids: bigint[], amounts: bigint[] = []): SummaryTransfer {
  return { from, to, tokenAddress, tokenType, amount: amounts.length === 1 ? (amounts[0] ?? null) : null, tokenIds: ids, amounts: amounts.length > 1 ? amounts : [] };
}
export function internal(from: Address, to: Address | null, value: bigint, o: Partial<SummaryInternal> = {}): SummaryInternal {
  return { type: 'call', from, to, value, createdContract: null, error: null, ...o };
}
export const topic = (a: Address): Hex => hex(`0x${a.slice(2).padStart(64, '0')}`);
export const word = (v: bigint): Hex => hex(`0x${v.toString(16).padStart(64, '0')}`);
export function rawLog(address: Address, topics: Hex[], data: Hex = EMPTY_HEX): SummaryLog {
  return { address, topics, data };
}

/** A decoded input as the decoder writes it (values rendered: decimal strings, hex, arrays). */
export function decoded(methodCall: string, parameters: { name: string; type: string; value: DecodedCall['parameters'][number]['value'] }[]): DecodedCall {
  return { method_call: methodCall, method_id: '12345678', parameters };
}

/** Any input of a selector that decodes (`0x` + 8 hex + a word). */
export function callData(sig: string, args: readonly unknown[]): Hex {
  const item = parseAbiItem(`function ${sig}` as string) as AbiFunction;
  return hex(concatHex([toFunctionSelector(item), encodeAbiParameters(item.inputs, args)]));
}

export function input(tx: Partial<SummaryTransaction> = {}, rest: Partial<Omit<SummaryInput, 'transaction'>> = {}): SummaryInput {
  return {
    transaction: { from: ALICE, to: BOB, value: 0n, createdContract: null, input: EMPTY_HEX, ...tx },
    decodedInput: null,
    tokenTransfers: [],
    tokens: TOKENS,
    logs: [],
    internalTransactions: [],
    ...rest,
  };
}

/** A summary item as text: the template with each variable's value (addresses and tokens by key). */
export function said(item: { template: string; variables: Readonly<Record<string, { type: string; value?: string; address?: Address; token?: Address }>> }): string {
  return item.template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = item.variables[name];
    if (v === undefined) return name === 'native' ? 'ETH' : `{${name}?}`;
    return v.value ?? v.address ?? (v.token === undefined ? '?' : (TOKENS.get(v.token)?.symbol ?? v.token));
  });
}
