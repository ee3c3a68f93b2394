/**
 * `contract/listcontracts`: contracts by `page`/`offset` (default 10 per page), as Blockscout:
 * - `filter=verified` (or `1`): verified contracts at the address first verified, oldest
 *   verification first, narrowed by `verified_at_start_timestamp` / `verified_at_end_timestamp`
 *   (unix seconds);
 * - `filter=unverified` (`2`): contracts the indexer saw created that are not verified at their
 *   address (bytecode twins included), oldest first;
 * - `filter=empty` (`3`): created contracts with no code left;
 * - no filter: every created contract, oldest first, verified ones with their facts.
 * A verified item is `{Address, ABI (JSON string), ContractName, CompilerVersion,
 * OptimizationUsed ("1"/"0")}`, any other `{Address, ABI: "Contract source code not verified"}`.
 * A bad `filter` is HTTP 400 with Blockscout's message.
 */
import type { VerifiedContract } from '../../contracts/records.ts';
import type { VerifiedFilter } from '../../contracts/store.ts';
import { verifiedByAddress } from '../../contracts/lookup.ts';
import type { Address, ContractCodeRecord } from '../../domain/records.ts';
import type { JsonObject } from '../../json.ts';
import type { EtherscanAction, EtherscanContext } from '../action.ts';
import { fail, ok } from '../action.ts';
import { collectWindow, MAX_SCANNED, WALK_CHUNK } from '../paging.ts';
import type { Window } from '../params.ts';
import { nonNegative, param, windowParam } from '../params.ts';
import { abiText, NOT_VERIFIED } from '../verified.ts';
import { PAGING } from '../paramDocs.ts';
import { EMPTY_HEX } from '../../domain/hex.ts';

type Kind = 'all' | 'verified' | 'unverified' | 'empty';

const FILTERS: Readonly<Record<string, Kind>> = { verified: 'verified', '1': 'verified', unverified: 'unverified', '2': 'unverified', empty: 'empty', '3': 'empty' };

const verifiedItem = (address: Address, c: VerifiedContract): JsonObject => ({
  Address: address,
  ABI: abiText(c),
  ContractName: c.name,
  CompilerVersion: c.compilerVersion,
  OptimizationUsed: c.optimizationEnabled ? '1' : '0',
});
const unverifiedItem = (address: Address): JsonObject => ({ Address: address, ABI: NOT_VERIFIED });

async function verifiedWindow(ctx: EtherscanContext, filter: VerifiedFilter, window: Window): Promise<readonly JsonObject[]> {
  const store = ctx.chain.contracts;
  if (store === undefined) return [];
  return collectWindow<VerifiedContract, JsonObject>(
    (after, limit) => store.listVerified(filter, { afterId: after?.id ?? null, limit, order: 'asc' }),
    window,
    (c) => [verifiedItem(c.address, c)],
  );
}

/** Created contracts, oldest first, each chunk's verifications in one lookup (at most MAX_SCANNED read). */
async function createdWindow(ctx: EtherscanContext, kind: Exclude<Kind, 'verified'>, window: Window): Promise<readonly JsonObject[]> {
  const need = window.skip + window.take;
  const out: JsonObject[] = [];
  let after: ContractCodeRecord | null = null;
  let scanned = 0;
  // a filter applied here reads at most MAX_SCANNED contracts (as the other filtered actions)
  while (out.length < need && scanned < MAX_SCANNED) {
    const rows: readonly ContractCodeRecord[] = await ctx.ds.listContracts(
      {},
      { after: after === null ? null : { blockNumber: after.blockNumber, address: after.address }, limit: WALK_CHUNK, order: 'asc' },
    );
    scanned += rows.length;
    const store = ctx.chain.contracts;
    const verified = store === undefined || kind === 'empty' ? new Map() : await verifiedByAddress(ctx.ds, store, rows.map((r) => r.address));
    for (const r of rows) {
      const v = verified.get(r.address);
      const own = v?.own === true ? v.contract : undefined;
      if (kind === 'empty' && r.deployedBytecode !== EMPTY_HEX) continue;
      if (kind === 'unverified' && own !== undefined) continue;
      out.push(own !== undefined ? verifiedItem(r.address, own) : unverifiedItem(r.address));
    }
    if (rows.length < WALK_CHUNK) break;
    after = rows[rows.length - 1] as ContractCodeRecord;
  }
  return out.slice(window.skip, need);
}

export const listcontracts: EtherscanAction = {
  module: 'contract',
  action: 'listcontracts',
  summary: 'Contracts: all, verified, unverified or empty',
  params: [
    { name: 'filter', description: 'Which contracts (default: all)', enum: ['verified', 'unverified', 'empty', '1', '2', '3'] },
    ...PAGING,
    { name: 'verified_at_start_timestamp', description: 'Verified at or after (unix seconds; with filter=verified)' },
    { name: 'verified_at_end_timestamp', description: 'Verified at or before (unix seconds; with filter=verified)' },
  ],
  async run(ctx, query) {
    const asked = param(query, 'filter');
    const kind: Kind | undefined = asked === undefined ? 'all' : FILTERS[asked.toLowerCase()];
    if (kind === undefined) return fail(`${asked ?? ''} is not a valid value for \`filter\`. Please use one of: verified, unverified, 1, 2.`, null, 400);
    const window = windowParam(query, 10);
    if ('error' in window) return window.error;
    if (kind !== 'verified') return ok([...(await createdWindow(ctx, kind, window.value))]);
    const start = nonNegative(param(query, 'verified_at_start_timestamp'), Number.MAX_SAFE_INTEGER);
    const end = nonNegative(param(query, 'verified_at_end_timestamp'), Number.MAX_SAFE_INTEGER);
    const filter: VerifiedFilter = {
      ...(start !== undefined ? { verifiedSince: start * 1000 } : {}),
      ...(end !== undefined ? { verifiedUntil: end * 1000 + 999 } : {}),
    };
    return ok([...(await verifiedWindow(ctx, filter, window.value))]);
  },
};
