/** The TokenInstance (NFT instance) object. */
import type { TokenInstanceRecord, TokenRecord } from '../domain/records.ts';
import type * as t from 'io-ts';
import type { JsonObject } from '../json.ts';
import type { TokenInstance } from '../schema/instance.ts';
import { renderAddress } from './address.ts';
import type { RenderContext } from './context.ts';
import { renderToken } from './token.ts';

export interface InstanceShape {
  /** embed the full token; null renders `token: null`; 'omit' leaves the key out (Pro lists) */
  readonly token: TokenRecord | null | 'omit';
  /** render `owner` (only when unique) and `is_unique`; false → both null (collections) */
  readonly withOwner: boolean;
}

/** The TokenInstance object as the API writes it; without `token` where the shape omits it. */
export type InstanceJson = t.OutputOf<typeof TokenInstance>;
export type InstanceFields = Omit<InstanceJson, 'token'>;

export function renderInstance(instance: TokenInstanceRecord, ctx: RenderContext, shape: InstanceShape & { readonly token: null }): InstanceFields & { token: null };
export function renderInstance(instance: TokenInstanceRecord, ctx: RenderContext, shape: InstanceShape & { readonly token: TokenRecord | null }): InstanceJson;
export function renderInstance(instance: TokenInstanceRecord, ctx: RenderContext, shape: InstanceShape): InstanceJson | InstanceFields;
export function renderInstance(instance: TokenInstanceRecord, ctx: RenderContext, shape: InstanceShape): InstanceJson | InstanceFields {
  const m = instance.metadata;
  const image = m === null ? null : imageOf(m);
  const animation = m === null ? null : stringField(m, 'animation_url');
  const owner = shape.withOwner && instance.isUnique && instance.owner !== null ? renderAddress(instance.owner, ctx) : null;
  const rendered: InstanceFields = {
    animation_url: toUrl(animation, ctx.ipfsGateway),
    external_app_url: toUrl(m === null ? null : stringField(m, 'external_url'), ctx.ipfsGateway),
    id: instance.tokenId.toString(),
    image_url: toUrl(image, ctx.ipfsGateway),
    is_unique: shape.withOwner ? instance.isUnique : null,
    media_type: null,
    media_url: toUrl(animation ?? image, ctx.ipfsGateway),
    metadata: m as JsonObject | null,
    owner,
    thumbnails: null,
  };
  if (shape.token === 'omit') return rendered;
  return { ...rendered, token: shape.token === null ? null : renderToken(shape.token) };
}

function stringField(m: Record<string, unknown>, key: string): string | null {
  const v = m[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** image_url → image → properties.image (a string or an object with description). */
function imageOf(m: Record<string, unknown>): string | null {
  const direct = stringField(m, 'image_url') ?? stringField(m, 'image');
  if (direct !== null) return direct;
  const props = m['properties'];
  if (props === null || typeof props !== 'object') return null;
  const img = (props as Record<string, unknown>)['image'];
  if (typeof img === 'string') return img.trim() || null;
  if (img !== null && typeof img === 'object') {
    const d = (img as Record<string, unknown>)['description'];
    return typeof d === 'string' && d.trim() !== '' ? d.trim() : null;
  }
  return null;
}

/** ipfs:// and ipfs://ipfs/ through the gateway, ar:// through Arweave; anything not a URI → null. */
export function toUrl(raw: string | null, ipfsGateway: string): string | null {
  if (raw === null) return null;
  let url = raw;
  if (url.startsWith('ipfs://')) url = ipfsGateway + url.slice('ipfs://'.length).replace(/^ipfs\//, '');
  else if (url.startsWith('ar://')) url = `https://arweave.net/${url.slice('ar://'.length)}`;
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/.test(url) ? url : null;
}
