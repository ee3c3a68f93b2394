/** Rendering current token balances (address token lists). */
import type { Address } from '../domain/records.ts';
import type * as t from 'io-ts';
import { listBody, pageSize, splitPage } from '../paging/page.ts';
import type { ListBody } from '../paging/page.ts';
import type { DataSource, TokenBalanceCursor, TokenBalanceFilter, TokenHolding } from '../ports.ts';
import type { RenderContext, RenderOptions } from '../render/context.ts';
import { instanceKey, loadContext } from '../render/context.ts';
import { renderInstance } from '../render/instance.ts';
import { renderToken, unknownToken } from '../render/token.ts';
import type { TokenJson } from '../render/token.ts';
import type { TokenBalance } from '../schema/holdings.ts';

/** A token balance as the API writes it. */
export type TokenBalanceJson = t.OutputOf<typeof TokenBalance>;

/**
 * The balances as Blockscout lists them, each with its token object. A token's object is
 * rendered once and shared by its balances (the ids of one collection); `ctx` null renders
 * every `token_instance` as null, else the instances it holds.
 */
export function renderBalances(rows: readonly TokenHolding[], ctx: RenderContext | null): TokenBalanceJson[] {
  const tokens = new Map<Address, TokenJson>();
  return rows.map((b) => {
    const record = b.token ?? unknownToken(b.tokenAddress, b.tokenType);
    let token = tokens.get(b.tokenAddress);
    if (token === undefined) tokens.set(b.tokenAddress, (token = renderToken(record)));
    const instance = ctx !== null && b.tokenId !== null ? ctx.instances.get(instanceKey({ tokenAddress: b.tokenAddress, tokenId: b.tokenId })) : undefined;
    return {
      token,
      token_id: b.tokenId === null ? null : b.tokenId.toString(),
      token_instance: instance === undefined || ctx === null ? null : renderInstance(instance, ctx, { token: record, withOwner: true }),
      value: b.value.toString(),
    };
  });
}

export async function tokenBalancePage(
  ds: DataSource,
  filter: TokenBalanceFilter,
  after: TokenBalanceCursor | null,
  q: { readonly items_count?: number },
  render: RenderOptions,
): Promise<ListBody<TokenBalanceJson>> {
  const size = pageSize(q);
  const { rows, last } = splitPage(await ds.listTokenHoldings(filter, { after, limit: size + 1, order: 'desc' }), size);
  const ctx = await loadContext(ds, { instances: rows.flatMap((r) => (r.tokenId === null ? [] : [{ tokenAddress: r.tokenAddress, tokenId: r.tokenId }])) }, render);
  const next =
    last === null
      ? null
      : {
          fiat_value: null,
          items_count: size,
          token_contract_address_hash: last.tokenAddress,
          token_id: last.tokenId === null ? null : last.tokenId.toString(),
          token_name: last.token?.name ?? null,
          token_type: last.tokenType,
          value: last.value.toString(),
        };
  return listBody(renderBalances(rows, ctx), next);
}
