/** Rendering current token balances (address token lists). */
import type { JsonObject } from '../json.ts';
import { listBody, pageSize, splitPage } from '../paging/page.ts';
import type { CurrentTokenBalance, DataSource, TokenBalanceCursor, TokenBalanceFilter } from '../ports.ts';
import type { RenderContext, RenderOptions } from '../render/context.ts';
import { instanceKey, loadContext } from '../render/context.ts';
import { renderInstance } from '../render/instance.ts';
import { renderToken, unknownToken } from '../render/token.ts';

export function renderBalance(b: CurrentTokenBalance, ctx: RenderContext, withInstance: boolean): JsonObject {
  const token = ctx.tokens.get(b.tokenAddress) ?? unknownToken(b.tokenAddress, b.tokenType);
  const instance =
    withInstance && b.tokenId !== null ? ctx.instances.get(instanceKey({ tokenAddress: b.tokenAddress, tokenId: b.tokenId })) : undefined;
  return {
    token: renderToken(token),
    token_id: b.tokenId === null ? null : b.tokenId.toString(),
    token_instance: instance === undefined ? null : renderInstance(instance, ctx, { token, withOwner: true }),
    value: b.value.toString(),
  };
}

export async function balanceContext(ds: DataSource, rows: readonly CurrentTokenBalance[], render: RenderOptions, withInstances: boolean) {
  return loadContext(
    ds,
    {
      tokens: rows.map((r) => r.tokenAddress),
      instances: withInstances ? rows.flatMap((r) => (r.tokenId === null ? [] : [{ tokenAddress: r.tokenAddress, tokenId: r.tokenId }])) : [],
    },
    render,
  );
}

export async function tokenBalancePage(
  ds: DataSource,
  filter: TokenBalanceFilter,
  after: TokenBalanceCursor | null,
  q: { readonly items_count?: number },
  render: RenderOptions,
): Promise<JsonObject> {
  const size = pageSize(q);
  const { rows, last } = splitPage(await ds.listTokenBalances(filter, { after, limit: size + 1, order: 'desc' }), size);
  const ctx = await balanceContext(ds, rows, render, true);
  const next =
    last === null
      ? null
      : {
          fiat_value: null,
          items_count: size,
          token_contract_address_hash: last.tokenAddress,
          token_id: last.tokenId === null ? null : last.tokenId.toString(),
          token_name: ctx.tokens.get(last.tokenAddress)?.name ?? null,
          token_type: last.tokenType,
          value: last.value.toString(),
        };
  return listBody(rows.map((b) => renderBalance(b, ctx, true)), next);
}
