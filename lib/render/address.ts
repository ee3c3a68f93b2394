/** The embedded Address object (spec: Address; Blockscout: address_with_info). */
import type { Address } from '../domain/records.ts';
import type { JsonObject } from '../json.ts';
import type { RenderContext } from './context.ts';
import { checksum } from './format.ts';

export function renderAddress(hash: Address, ctx: Pick<RenderContext, 'addresses'>): JsonObject {
  const info = ctx.addresses.get(hash);
  return {
    hash: checksum(hash),
    implementations: [],
    is_contract: info?.isContract ?? false,
    is_scam: false,
    is_verified: info === undefined ? null : false,
    metadata: null,
    name: info?.name ?? null,
    proxy_type: null,
    reputation: 'ok',
    ens_domain_name: null,
    private_tags: [],
    public_tags: [],
    watchlist_names: [],
  };
}

export const renderAddressOrNull = (hash: Address | null, ctx: Pick<RenderContext, 'addresses'>): JsonObject | null =>
  hash === null ? null : renderAddress(hash, ctx);
