/**
 * GET /transactions/{transaction_hash_param}/state-changes — coin and token balance changes.
 * The list is per transaction and bounded; `state_changes` (or the Pro API's
 * `state_changes_count`) is the number of entries already returned, `items_count` the page
 * size. Blockscout's own cursor `{items_count: N, state_changes: null}` (N = entries already
 * returned) is accepted too.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Hash, StateChangeRecord, TokenTransferRecord } from '../domain/records.ts';
import type { DataSource } from '../ports.ts';
import { notFound } from '../errors.ts';
import type * as t from 'io-ts';
import { anyString, fullHash, integer } from '../params/codecs.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, listBody } from '../paging/page.ts';
import { renderAddress } from '../render/address.ts';
import type { RenderContext } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { renderToken, unknownToken } from '../render/token.ts';
import { expandTransfer, renderTotal } from '../render/transfer.ts';
import { defineEndpoint } from './endpoint.ts';
import { page } from '../schema/page.ts';
import { StateChange } from '../schema/stateChange.ts';

/** Position and size from the three accepted cursor forms. */
function window(q: { items_count?: number; state_changes?: string; state_changes_count?: number }): { offset: number; size: number } {
  const explicit = q.state_changes_count ?? (q.state_changes !== undefined && /^\d+$/.test(q.state_changes) ? Number(q.state_changes) : undefined);
  if (explicit !== undefined) return { offset: explicit, size: Math.min(q.items_count ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };
  if (q.state_changes !== undefined && q.items_count !== undefined) return { offset: q.items_count, size: DEFAULT_PAGE_SIZE };
  return { offset: 0, size: Math.min(q.items_count ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };
}

/** A state change as the API writes it. */
type StateChangeJson = t.OutputOf<typeof StateChange>;

function renderChange(sc: StateChangeRecord, transfers: readonly TokenTransferRecord[], ctx: RenderContext): StateChangeJson {
  const token = sc.tokenAddress === null ? null : (ctx.tokens.get(sc.tokenAddress) ?? null);
  const negative = sc.balanceBefore < 0n || sc.balanceAfter < 0n;
  let change: StateChangeJson['change'] = (sc.balanceAfter - sc.balanceBefore).toString();
  if (sc.type === 'token' && token?.type === 'ERC-721') {
    change = transfers
      .filter((t) => t.tokenAddress === sc.tokenAddress && (t.from === sc.address || t.to === sc.address))
      .reverse()
      .flatMap((t) => expandTransfer(t).map((item) => ({ direction: t.from === sc.address ? ('from' as const) : ('to' as const), total: renderTotal(item, ctx) })));
  }
  return {
    address: renderAddress(sc.address, ctx),
    balance_after: negative ? null : sc.balanceAfter.toString(),
    balance_before: negative ? null : sc.balanceBefore.toString(),
    change,
    is_miner: sc.isMiner,
    token:
      sc.tokenAddress === null ? null : renderToken(token ?? unknownToken(sc.tokenAddress, 'ERC-20')),
    token_id: sc.tokenId === null ? null : sc.tokenId.toString(),
    type: sc.type,
  };
}

export const transactionStateChanges = defineEndpoint({
  route: '/transactions/{transaction_hash_param}/state-changes',
  summary: 'Coin and token balance changes of a transaction',
  path: { transaction_hash_param: fullHash },
  query: { items_count: integer({ min: 1 }), state_changes: anyString, state_changes_count: integer({ min: 0 }) },
  response: page(StateChange),
  handler:
    ({ ds, render }) =>
    ({ path, query }) =>
    async () => {
      const tx = await ds.getTransaction(path.transaction_hash_param);
      if (tx === null) return E.left(notFound);
      const all = (await ds.listStateChanges?.(tx.hash)) ?? [];
      const { offset, size } = window(query);
      const rows = all.slice(offset, offset + size);
      const hasTokenRows = rows.some((r) => r.type === 'token');
      const transfers = hasTokenRows ? await allTransfersOf(ds, tx.hash) : [];
      const ctx = await loadContext(
        ds,
        {
          addresses: rows.map((r) => r.address),
          tokens: rows.flatMap((r) => (r.tokenAddress === null ? [] : [r.tokenAddress])),
          instances: transfers.flatMap((t) => t.tokenIds.map((tokenId) => ({ tokenAddress: t.tokenAddress, tokenId }))),
        },
        render,
      );
      const end = offset + rows.length;
      return E.right(
        listBody(
          rows.map((r) => renderChange(r, transfers, ctx)),
          end < all.length ? { items_count: size, state_changes: end } : null,
        ),
      );
    },
});

/** Every transfer of one transaction (bounded by the transaction). */
async function allTransfersOf(ds: DataSource, hash: Hash): Promise<TokenTransferRecord[]> {
  const out: TokenTransferRecord[] = [];
  for (;;) {
    const last = out[out.length - 1];
    const batch = await ds.listTokenTransfers(
      { transactionHash: hash },
      { after: last === undefined ? null : { blockNumber: last.blockNumber, logIndex: last.logIndex }, limit: 500, order: 'asc' },
    );
    out.push(...batch);
    if (batch.length < 500) return out;
  }
}
