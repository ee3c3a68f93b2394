/**
 * The Etherscan-compatible dialect (`/api?module=…&action=…`), the pieces every action shares:
 * what it runs against, what it answers, and Blockscout's envelope `{status, message, result}`.
 *
 * Blockscout answers almost every outcome with HTTP 200: success is `status "1"` / `OK`; a bad
 * parameter, an unknown entity and an empty list are `status "0"` with a message (an empty list
 * also with `result: []`). Only the dispatch errors (missing/unknown module or action) are 400.
 */
import type { ChainConfig } from '../chain-config.ts';
import type { AbiIndex } from '../decode/abiIndex.ts';
import type { JsonValue } from '../json.ts';
import type { DataSource } from '../ports.ts';
import type { EtherscanParam } from './paramDocs.ts';

/** The request's parameters, one string per name (the first of repeated ones). */
export type EtherscanQuery = Readonly<Record<string, string>>;

export interface EtherscanContext {
  /** the chain's config: its store and the node that answers `module=proxy` state reads (eth_call, ...), when configured */
  readonly chain: ChainConfig;
  /** the chain's store: `chain.store` */
  readonly ds: DataSource;
  /** the chain id the explorer serves this store under (decimal) */
  readonly chainId: string;
  /** told about a failing store behind a JSON-RPC read of `module=proxy` */
  readonly onError?: (error: unknown) => void;
  /** library users' ABIs (`createExplorer({ abis })`), for `functionName` */
  readonly abis?: AbiIndex;
}

export interface EtherscanAnswer {
  /** HTTP status (200 for nearly everything, as Blockscout) */
  readonly status: number;
  readonly body: JsonValue;
  /** default JSON; `stats/tokensupply&cmc=true` answers text/plain */
  readonly text?: string;
}

/** One action of one module: `module=account&action=txlist` is `{module: 'account', action: 'txlist'}`. */
export interface EtherscanAction {
  readonly module: string;
  /** lower case: Blockscout lower-cases the requested action */
  readonly action: string;
  /** one line for our OpenAPI document */
  readonly summary: string;
  /** its parameters (besides `module`, `action` and `apikey`), for our OpenAPI document */
  readonly params: readonly EtherscanParam[];
  /** the body's shape: the envelope `{status, message, result}` (default), a JSON-RPC response, or a bare value */
  readonly shape?: 'json-rpc' | 'bare';
  run(ctx: EtherscanContext, query: EtherscanQuery): Promise<EtherscanAnswer>;
}

/** `{"status":"1","message":"OK","result":…}` */
export const ok = (result: JsonValue): EtherscanAnswer => ({ status: 200, body: { status: '1', message: 'OK', result } });

/** `{"status":"0","message":…,"result":null}` (HTTP 200 unless told) */
export const fail = (message: string, result: JsonValue = null, status = 200): EtherscanAnswer => ({ status, body: { status: '0', message, result } });

/** An empty list: `{"status":"0","message":"No transactions found","result":[]}` */
export const none = (message: string): EtherscanAnswer => fail(message, []);

/** A JSON-RPC shaped answer (`block/eth_block_number`, `module=proxy`). */
export const rpcShaped = (id: JsonValue, outcome: { readonly result: JsonValue } | { readonly error: JsonValue }): EtherscanAnswer => ({
  status: 200,
  body: 'result' in outcome ? { jsonrpc: '2.0', id, result: outcome.result } : { jsonrpc: '2.0', id, error: outcome.error },
});
