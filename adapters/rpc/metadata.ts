/**
 * NFT metadata fetch: data: URIs (base64 and plain), http(s) with a timeout and a size cap,
 * ipfs:// through a configurable gateway, ar:// through arweave.net. Every failure is null:
 * metadata never stops indexing.
 */

export interface MetadataOptions {
  /** gateway prefix for ipfs:// URIs (default https://ipfs.io/ipfs/) */
  readonly ipfsGateway?: string;
  /** per fetch (default 5000 ms) */
  readonly timeoutMs?: number;
  /** largest body accepted (default 1 MiB) */
  readonly maxBytes?: number;
  /** fetch implementation (tests); default global fetch */
  readonly fetch?: typeof fetch;
}

export const DEFAULT_IPFS_GATEWAY = 'https://ipfs.io/ipfs/';

function asObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function fromDataUri(uri: string): Record<string, unknown> | null {
  const comma = uri.indexOf(',');
  if (comma < 0) return null;
  const meta = uri.slice(5, comma);
  const payload = uri.slice(comma + 1);
  if (/;base64$/i.test(meta)) return asObject(Buffer.from(payload, 'base64').toString('utf8'));
  let text = payload;
  try {
    text = decodeURIComponent(payload);
  } catch {
    // not percent-encoded: take it as it is
  }
  return asObject(text);
}

/** The http(s) URL a token URI resolves to, or null when it is no fetchable URI. */
export function resolveUri(uri: string, gateway: string = DEFAULT_IPFS_GATEWAY): string | null {
  const u = uri.trim();
  if (/^ipfs:\/\//i.test(u)) {
    const path = u.slice('ipfs://'.length).replace(/^ipfs\//i, '');
    return `${gateway.endsWith('/') ? gateway : `${gateway}/`}${path}`;
  }
  if (/^ar:\/\//i.test(u)) return `https://arweave.net/${u.slice('ar://'.length)}`;
  if (/^https?:\/\//i.test(u)) return u;
  return null;
}

async function readCapped(res: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return null;
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createMetadataFetcher(options: MetadataOptions = {}): (uri: string) => Promise<Record<string, unknown> | null> {
  const gateway = options.ipfsGateway ?? DEFAULT_IPFS_GATEWAY;
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const doFetch = options.fetch ?? fetch;
  return async (uri: string) => {
    try {
      const u = uri.trim();
      if (/^data:/i.test(u)) return fromDataUri(u);
      if (u.startsWith('{')) return asObject(u);
      const url = resolveUri(u, gateway);
      if (url === null) return null;
      const res = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        return null;
      }
      const text = await readCapped(res, maxBytes);
      return text === null ? null : asObject(text);
    } catch {
      return null;
    }
  };
}
