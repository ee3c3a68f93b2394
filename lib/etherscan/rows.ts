/**
 * What the dialect's list rows share: values as strings (`""` for none, as Blockscout renders
 * nil), confirmations from the head, and the per-row transaction facts (gas, nonce, cumulative
 * gas) read once per page — one query per block for the cumulative gas, one per transaction.
 */
import { implementationAbis, loadProxyView } from '../proxy/view.ts';
import type { Address, AddressView, Hash, TokenRecord, TransactionRecord } from '../domain/records.ts';
import type { DataSource } from '../ports.ts';
import { verifiedByAddress } from '../contracts/lookup.ts';
import { verifiedAbiIndex } from '../decode/verifiedIndex.ts';
import type { DecodeContext } from '../render/decode.ts';
import { decodeTransactionInput } from '../render/decode.ts';
import { addressMaps } from '../render/context.ts';
import type { EtherscanContext } from './action.ts';

/** A value as Blockscout interpolates it into a string: nil → "". */
export const str = (v: bigint | number | string | null | undefined): string => (v === null || v === undefined ? '' : v.toString());

export const hex = (n: bigint | number): string => `0x${n.toString(16)}`;

/** Blockscout's DateTime string form (`2024-01-01 00:00:00.000000Z`). */
export function dateTimeString(unixSeconds: number): string {
  const iso = new Date(unixSeconds * 1000).toISOString(); // 2024-01-01T00:00:00.000Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.000000Z`;
}

/** The gas a block used up to and including each listed transaction, keyed `block:index`. */
export async function cumulativeGas(ds: DataSource, at: readonly { readonly blockNumber: number; readonly index: number }[]): Promise<ReadonlyMap<string, bigint>> {
  const highest = new Map<number, number>();
  for (const { blockNumber, index } of at) highest.set(blockNumber, Math.max(index, highest.get(blockNumber) ?? -1));
  const out = new Map<string, bigint>();
  await Promise.all(
    [...highest].map(async ([blockNumber, index]) => {
      const rows = await ds.listTransactions({ status: 'validated' }, { after: { blockNumber, index: index + 1 }, limit: index + 1, order: 'desc' });
      let sum = 0n;
      for (const tx of rows.filter((r) => r.blockNumber === blockNumber).reverse()) {
        sum += tx.gasUsed ?? 0n;
        out.set(`${blockNumber}:${tx.index}`, sum);
      }
    }),
  );
  return out;
}

export const gasKey = (blockNumber: number | null, index: number | null): string => `${blockNumber}:${index}`;

/** The transactions of a page's rows, by hash (one lookup per distinct hash). */
export async function transactionsOf(ds: DataSource, hashes: readonly Hash[]): Promise<ReadonlyMap<Hash, TransactionRecord>> {
  const distinct = [...new Set(hashes)];
  const found = await Promise.all(distinct.map((h) => ds.getTransaction(h)));
  return new Map(found.filter((tx): tx is TransactionRecord => tx !== null).map((tx) => [tx.hash, tx]));
}

/** The tokens of a page's rows, by address. */
export async function tokensOf(ds: DataSource, addresses: readonly Address[]): Promise<ReadonlyMap<Address, TokenRecord>> {
  const distinct = [...new Set(addresses)];
  const found = distinct.length === 0 ? [] : await ds.getTokens(distinct);
  return new Map(found.map((t) => [t.address, t]));
}

/** The head for `confirmations` (0 on an empty store). */
export async function headOf(ds: DataSource): Promise<number> {
  return (await ds.getHighestBlockNumber()) ?? 0;
}

export const confirmations = (head: number, blockNumber: number | null): string => (blockNumber === null ? '0' : String(Math.max(head - blockNumber, 0)));

/** `isError`: "1" when the transaction failed. */
export const isError = (tx: TransactionRecord): string => (tx.status === 'error' ? '1' : '0');

/** `txreceipt_status`: "1" ok, "0" failed, "" unknown (pending / pre-Byzantium). */
export const receiptStatus = (tx: TransactionRecord): string => (tx.status === null ? '' : tx.status === 'ok' ? '1' : '0');

/** `methodId`: the input's first 4 bytes (`0x` for a plain transfer). */
export const methodIdOf = (tx: TransactionRecord): string => tx.methodId ?? (tx.input.length >= 10 ? tx.input.slice(0, 10) : '0x');

/**
 * `functionName`: the called method's signature with its parameter names (`transfer(address to,
 * uint256 value)`) when the input decodes (the called contract's verified ABI, any verified ABI,
 * the library user's ABIs, the known signatures: lib/render/decode.ts), else "" (as Etherscan
 * and Blockscout leave an unknown one).
 */
export const functionNameOf = (tx: TransactionRecord, dc: DecodeContext): string => {
  const call = decodeTransactionInput(tx, dc)?.['method_call'];
  return typeof call === 'string' ? call : '';
};

/** What `functionName` decodes a page's transactions with: the called contracts' verified ABIs (two batch queries), every verified ABI, the user's ABIs, the called addresses (a token's type; proxies). */
export async function decodeContextOf(ctx: EtherscanContext, txs: readonly TransactionRecord[]): Promise<DecodeContext> {
  const targets = [...new Set(txs.flatMap((tx) => (tx.to === null ? [] : [tx.to])))];
  const contracts = ctx.chain.contracts;
  const views: Promise<readonly AddressView[]> = targets.length === 0 ? Promise.resolve([]) : ctx.ds.getAddressViews(targets);
  const [verified, verifiedAbis, found, proxyView] = await Promise.all([
    contracts === undefined || targets.length === 0 ? Promise.resolve(undefined) : verifiedByAddress(ctx.ds, contracts, targets),
    contracts === undefined ? Promise.resolve(undefined) : verifiedAbiIndex(contracts),
    views,
    // the proxies among them, once the address lookup has said which are
    views.then((all) => {
      const proxied = all.flatMap((a) => (a.proxied ? [a.hash] : []));
      return proxied.length === 0 ? undefined : loadProxyView(ctx.ds, contracts, proxied);
    }),
  ]);
  return {
    ...(verified === undefined ? {} : { verified }),
    ...(verifiedAbis === undefined ? {} : { verifiedAbis }),
    ...(ctx.abis === undefined ? {} : { abis: ctx.abis }),
    tokenTypes: addressMaps(found).tokenTypes,
    ...(proxyView === undefined || proxyView.proxies.size === 0 ? {} : { implementations: implementationAbis(proxyView) }),
  };
}