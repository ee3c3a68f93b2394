/** The embedded Address object (spec: Address; Blockscout: address_with_info). */
import type { Address } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { Address as AddressObject } from '../schema/address.ts';
import type { RenderContext } from './context.ts';
import { checksum } from './format.ts';
import { proxyFields } from '../proxy/view.ts';

/**
 * With a contract store (ctx.verified): a contract verified at this address has `is_verified:
 * true` and the contract's name (Blockscout names the address after it on verification); a
 * bytecode twin stays `is_verified: false` with its own name, as Blockscout shows twins.
 */
/** The embedded Address object as the API writes it (its schema's output type). */
export type AddressJson = t.OutputOf<typeof AddressObject>;

export function renderAddress(hash: Address, ctx: Pick<RenderContext, 'addresses'> & Partial<Pick<RenderContext, 'verified' | 'proxies' | 'implementationsVerified'>>): AddressJson {
  const info = ctx.addresses.get(hash);
  const verification = ctx.verified?.get(hash);
  const own = verification?.own === true ? verification.contract : undefined;
  const proxy = proxyFields(ctx, hash);
  return {
    hash: checksum(hash),
    implementations: proxy.implementations,
    is_contract: own !== undefined || (info?.isContract ?? false),
    is_scam: false,
    is_verified: own !== undefined ? true : info === undefined ? null : false,
    metadata: null,
    name: own?.name ?? info?.name ?? null,
    proxy_type: proxy.proxy_type,
    reputation: 'ok',
    ens_domain_name: null,
    private_tags: [],
    public_tags: [],
    watchlist_names: [],
  };
}

export const renderAddressOrNull = (hash: Address | null, ctx: Pick<RenderContext, 'addresses'> & Partial<Pick<RenderContext, 'verified' | 'proxies' | 'implementationsVerified'>>): AddressJson | null =>
  hash === null ? null : renderAddress(hash, ctx);
