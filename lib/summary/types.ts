/**
 * What the summary rules read and write. The rules (./rules/*) are pure: a transaction's decoded
 * data in — the transaction, its decoded input, its token transfers, logs and internal
 * transactions, the tokens they touch — and summary items out, each a template with named
 * variables (Blockscout's transaction-interpreter shape, `{action_type} {amount} {token} to
 * {to_address}`). Addresses and tokens stay keys here: ./render.ts turns them into the API's
 * Address and Token objects. A user operation's summary builds the same input from its own
 * call data and log window.
 */
import type { DecodedCall } from '../decode/decoder.ts';
import type { Address, Hex, InternalTransactionRecord, LogRecord, TokenRecord, TokenTransferRecord, TokenType, TransactionRecord } from '../domain/records.ts';

/** The transaction (or the user operation) summarized. */
export type SummaryTransaction = Pick<TransactionRecord, 'from' | 'to' | 'value' | 'createdContract' | 'input'>;
export type SummaryTransfer = Pick<TokenTransferRecord, 'from' | 'to' | 'tokenAddress' | 'tokenType' | 'amount' | 'tokenIds' | 'amounts'>;
export type SummaryLog = Pick<LogRecord, 'address' | 'topics' | 'data'>;
export type SummaryInternal = Pick<InternalTransactionRecord, 'type' | 'from' | 'to' | 'value' | 'createdContract' | 'error'>;

export interface SummaryInput {
  readonly transaction: SummaryTransaction;
  /** the transaction's input decoded (verified ABI, signature table); null when nothing decodes it */
  readonly decodedInput: DecodedCall | null;
  /** in log order */
  readonly tokenTransfers: readonly SummaryTransfer[];
  /** the tokens of the transfers and of the approval logs that the store knows */
  readonly tokens: ReadonlyMap<Address, TokenRecord>;
  /** in log order */
  readonly logs: readonly SummaryLog[];
  /** below the top-level call, in trace order */
  readonly internalTransactions: readonly SummaryInternal[];
  /** decodes a call made by an account (`execute`'s target and data); absent: those calls stay undecoded */
  readonly decodeCall?: (to: Address, input: Hex) => DecodedCall | null;
}

/** The stored records a summary is made from (the store's first ones of the transaction). */
export interface SummaryRecords {
  readonly transfers: readonly TokenTransferRecord[];
  readonly logs: readonly LogRecord[];
  readonly internals: readonly InternalTransactionRecord[];
}

/** One call the actor made: the transaction's own, or each call of an account's `execute` / `executeBatch`. */
export interface SummaryCall {
  readonly to: Address;
  readonly value: bigint;
  readonly input: Hex;
  readonly decoded: DecodedCall | null;
}

/** Who acted and through which calls (the sender, or the account whose `execute` ran). */
export interface SummaryScope {
  readonly actor: Address;
  readonly calls: readonly SummaryCall[];
  /** the calls are an account's `execute` / `executeBatch` */
  readonly viaAccount: boolean;
}

/** A template variable: a value the frontend prints, or an address or token ./render.ts expands. */
export type SummaryVariable =
  | { readonly type: 'string' | 'currency' | 'method'; readonly value: string }
  | { readonly type: 'address'; readonly address: Address }
  | { readonly type: 'token'; readonly token: Address; readonly tokenType: TokenType };

/** One summary: `{name}` in the template names a variable; `{native}` (the chain's coin) needs none. */
export interface SummaryItem {
  readonly template: string;
  readonly variables: Readonly<Record<string, SummaryVariable>>;
}

export const text = (value: string): SummaryVariable => ({ type: 'string', value });
export const currency = (value: string): SummaryVariable => ({ type: 'currency', value });
export const method = (value: string): SummaryVariable => ({ type: 'method', value });
export const address = (a: Address): SummaryVariable => ({ type: 'address', address: a });
export const token = (a: Address, tokenType: TokenType): SummaryVariable => ({ type: 'token', token: a, tokenType });
