/**
 * The Sourcify API's paths, served at the server's root (below any mount prefix): API v2
 * (`/v2/verify/…`, `/v2/contract/…`, `/v2/contracts/…`) and the legacy ones clients still send
 * (`/check-all-by-addresses`, `POST /`, `POST /verify`). lib/classify.ts claims them for the
 * dialect; `sourcifyRoute` names the endpoint a method and path ask for.
 */
import { safeDecode } from '../routes.ts';

export type SourcifyRoute =
  | { readonly name: 'verify' | 'verifyMetadata' | 'contract'; readonly chainId: string; readonly address: string }
  | { readonly name: 'job'; readonly id: string }
  | { readonly name: 'contracts'; readonly chainId: string }
  | { readonly name: 'checkAll' | 'legacyVerify' };

const V2 = /^\/v2\/(?:verify|contracts?)(?:\/|$)/;
const LEGACY = new Set(['/check-all-by-addresses', '/checkallbyaddresses', '/verify']);

/** the path without one trailing slash (the root stays `/`) */
const trimmed = (path: string): string => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/** Whether a path is the Sourcify API's: `root` for `/` (the legacy verify's, for a POST only). */
export function sourcifyPath(path: string): 'root' | boolean {
  if (path === '' || path === '/') return 'root';
  const p = trimmed(path);
  return V2.test(p) || LEGACY.has(p.toLowerCase());
}

/** The endpoint of a method and path; null: none (a path of the API under another method). */
export function sourcifyRoute(method: string, path: string): SourcifyRoute | null {
  const m = method === 'HEAD' ? 'GET' : method;
  const p = trimmed(path === '' ? '/' : path);
  if (m === 'POST' && (p === '/' || p.toLowerCase() === '/verify')) return { name: 'legacyVerify' };
  if (m === 'GET' && LEGACY.has(p.toLowerCase()) && p.toLowerCase() !== '/verify') return { name: 'checkAll' };
  const parts = p.split('/').slice(2).map(safeDecode);
  const [kind, a, b, c] = parts;
  if (kind === 'verify' && m === 'POST' && a === 'metadata' && b !== undefined && c !== undefined && parts.length === 4) return { name: 'verifyMetadata', chainId: b, address: c };
  if (kind === 'verify' && m === 'POST' && a !== undefined && b !== undefined && parts.length === 3) return { name: 'verify', chainId: a, address: b };
  if (kind === 'verify' && m === 'GET' && a !== undefined && parts.length === 2) return { name: 'job', id: a };
  if (kind === 'contract' && m === 'GET' && a !== undefined && b !== undefined && parts.length === 3) return { name: 'contract', chainId: a, address: b };
  if (kind === 'contracts' && m === 'GET' && a !== undefined && parts.length === 2) return { name: 'contracts', chainId: a };
  return null;
}
