/**
 * The one path classifier: which dialect a path (below any mount prefix, without its query)
 * belongs to. Shared by lib's `handle` and the Koa host, so the two never disagree.
 *
 *   api        `/api/v2/...`, `/{chain_id}/api/v2/...`          (then the route table)
 *   rpc        `/api/eth-rpc`, `/{chain_id}/json-rpc`           (JSON-RPC subset)
 *   etherscan  `/api`, `/{chain_id}/api` and the legacy paths below them
 *   config     `/api/json/config`                                (the gateway's config)
 *   sourcify   `/v2/verify/…`, `/v2/contract/…`, `/v2/contracts/…`, `/check-all-by-addresses`,
 *              `/verify` and `/` (`root`: the legacy verify's only as a POST)  (lib/sourcify/)
 *
 * A chain id is undefined for the per-instance form (the default chain answers).
 */
import { parseEtherscanPath } from './etherscan/index.ts';
import { sourcifyPath } from './sourcify/paths.ts';
import type { ApiVersion } from './paths.ts';
import { CONFIG_PATH, INSTANCE_RPC_PATH, MULTICHAIN_RPC_PATH } from './paths.ts';
import { parsePath, safeDecode } from './routes.ts';

export type PathClass =
  | { readonly dialect: 'api'; readonly chainId: string | undefined; readonly subPath: string; readonly api: ApiVersion }
  | { readonly dialect: 'rpc'; readonly chainId: string | undefined }
  /** `legacyPath`: a legacy path below `/api` (e.g. `/legacy/logs/get-logs`), as sent */
  | { readonly dialect: 'etherscan'; readonly chainId: string | undefined; readonly legacyPath: string | undefined }
  | { readonly dialect: 'config' }
  | { readonly dialect: 'sourcify'; readonly root: boolean };

const MULTICHAIN_RPC = new RegExp(`^/([^/]+)${MULTICHAIN_RPC_PATH}/?$`, 'i');
/** a path equal to `fixed`, in any case, with or without one trailing slash */
const same = (path: string, fixed: string): boolean => {
  const lower = path.toLowerCase();
  return lower === fixed || lower === `${fixed}/`;
};

/** The dialect of a path; null when it is none of ours. */
export function classifyPath(path: string): PathClass | null {
  const query = path.indexOf('?');
  const clean = query === -1 ? path : path.slice(0, query);
  const api = parsePath(clean);
  if (api !== null) return { dialect: 'api', chainId: api.chainId, subPath: api.subPath, api: api.api };
  if (same(clean, INSTANCE_RPC_PATH)) return { dialect: 'rpc', chainId: undefined };
  const rpc = MULTICHAIN_RPC.exec(clean);
  if (rpc !== null) return { dialect: 'rpc', chainId: safeDecode(rpc[1] ?? '') };
  const etherscan = parseEtherscanPath(clean);
  if (etherscan !== null) {
    // the legacy path below `/api` (or `/{chain_id}/api`), as sent
    const legacyPath = etherscan.legacy === undefined ? undefined : clean.replace(/^.*?\/api(?=\/)/i, '');
    return { dialect: 'etherscan', chainId: etherscan.chainId, legacyPath };
  }
  if (same(clean, CONFIG_PATH)) return { dialect: 'config' };
  const sourcify = sourcifyPath(clean);
  if (sourcify !== false) return { dialect: 'sourcify', root: sourcify === 'root' };
  return null;
}
