/**
 * `docsPage(options)`: a page for people — our OpenAPI document as interactive API docs
 * (swagger-ui-dist, served from node_modules by this server: no CDN), naming the configured
 * chains, with "Try it out" calling this server. The page is at `/` and `/api-docs`, its assets
 * below `/api-docs/`; every other request passes through.
 *
 * The document is `<prefix>/api/v2/openapi.json`; with several chains the page offers each
 * chain's `<prefix>/<chain_id>/api/v2/openapi.json` as well.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Middleware } from 'koa';
import { API_PREFIX } from '../lib/index.ts';

export interface DocsPageOptions {
  readonly chainIds: readonly string[];
  /** the chain of the per-instance form `/api/v2` */
  readonly defaultChain: string;
  /** where the API is mounted (the explorer middleware's `prefix`; default none) */
  readonly prefix?: string;
  /** the page's own path (default `/api-docs`); its assets are served below it */
  readonly path?: string;
  /** also show the page at `/` (default true) */
  readonly root?: boolean;
  /** links shown under the title, e.g. `{ metrics: '/metrics' }` */
  readonly links?: Readonly<Record<string, string>>;
}

export const DEFAULT_DOCS_PATH = '/api-docs';
export const OPENAPI_FILE = 'openapi.json';

/** The files of swagger-ui-dist the page uses, by the name they are served under. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** The page loads only what this server serves; "Try it out" calls only this server. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface DocumentLink {
  readonly name: string;
  readonly url: string;
}

/** The documents the page offers: the per-instance one, then (with several chains) each chain's. */
export function documentLinks(options: Pick<DocsPageOptions, 'chainIds' | 'defaultChain' | 'prefix'>): DocumentLink[] {
  const prefix = options.prefix ?? '';
  const links = [{ name: `chain ${options.defaultChain}: ${prefix}${API_PREFIX}`, url: `${prefix}${API_PREFIX}/${OPENAPI_FILE}` }];
  if (options.chainIds.length > 1) {
    for (const id of options.chainIds) {
      const base = `${prefix}/${encodeURIComponent(id)}${API_PREFIX}`;
      links.push({ name: `chain ${id}: ${base}`, url: `${base}/${OPENAPI_FILE}` });
    }
  }
  return links;
}

export function docsPage(options: DocsPageOptions): Middleware {
  const path = options.path ?? DEFAULT_DOCS_PATH;
  if (!/^\/[^?#]*[^/?#]$/.test(path)) throw new Error(`docs path: a path such as /api-docs, got "${path}"`);
  const pages = new Set([path, `${path}/`, ...(options.root === false ? [] : ['/'])]);
  const assetsBase = `${path}/`;
  const html = pageHtml(options, assetsBase);
  const init = initScript(documentLinks(options));
  const dir = swaggerUiDir();
  const loaded = new Map<string, Promise<Buffer>>();

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (pages.has(ctx.path)) {
      ctx.set('content-security-policy', CSP);
      ctx.set('cache-control', 'no-cache');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = html;
      return;
    }
    if (!ctx.path.startsWith(assetsBase)) return next();
    const name = ctx.path.slice(assetsBase.length);
    if (name === 'init.js') {
      ctx.set('cache-control', 'no-cache');
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = init;
      return;
    }
    const type = Object.prototype.hasOwnProperty.call(ASSETS, name) ? ASSETS[name] : undefined;
    if (type === undefined) return next();
    let file = loaded.get(name);
    if (file === undefined) {
      file = readFile(join(dir, name));
      file.catch(() => loaded.delete(name));
      loaded.set(name, file);
    }
    ctx.set('cache-control', 'public, max-age=3600');
    ctx.type = type;
    ctx.body = await file;
  };
}

function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function pageHtml(options: DocsPageOptions, assets: string): string {
  const prefix = options.prefix ?? '';
  const chains = options.chainIds
    .map((id) => {
      const forms = [`${prefix}/${encodeURIComponent(id)}${API_PREFIX}`];
      if (id === options.defaultChain) forms.unshift(`${prefix}${API_PREFIX}`);
      return `<li class="chain" data-chain="${escapeHtml(id)}">chain <b>${escapeHtml(id)}</b>${id === options.defaultChain ? ' (default)' : ''}: ${forms
        .map((f) => `<code>${escapeHtml(f)}</code>`)
        .join(' · ')}</li>`;
    })
    .join('');
  const links = Object.entries(options.links ?? {})
    .map(([name, href]) => `<a href="${escapeHtml(href)}">${escapeHtml(name)}</a>`)
    .join(' · ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>scoutkit — Blockscout API v2</title>
<link rel="stylesheet" href="${assets}swagger-ui.css">
<link rel="icon" type="image/png" href="${assets}favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="${assets}favicon-16x16.png" sizes="16x16">
<style>
  body { margin: 0; background: #fafafa; }
  #scoutkit { font-family: sans-serif; color: #3b4151; max-width: 1460px; margin: 0 auto; padding: 16px 20px 0; box-sizing: border-box; }
  #scoutkit h1 { font-size: 22px; margin: 0 0 6px; }
  #scoutkit ul { margin: 4px 0; padding-left: 20px; }
  #scoutkit .links { font-size: 14px; margin: 4px 0; }
  #scoutkit code { font-size: 13px; }
</style>
</head>
<body>
<header id="scoutkit">
<h1>scoutkit — Blockscout API v2</h1>
<div>Chains served here (every endpoint in both forms):</div>
<ul id="chains">${chains}</ul>
${links === '' ? '' : `<div class="links">${links}</div>`}
</header>
<div id="swagger-ui"></div>
<script src="${assets}swagger-ui-bundle.js"></script>
<script src="${assets}swagger-ui-standalone-preset.js"></script>
<script src="${assets}init.js"></script>
</body>
</html>
`;
}

function initScript(documents: readonly DocumentLink[]): string {
  const [first] = documents;
  const source = documents.length === 1 && first ? { url: first.url } : { urls: documents, 'urls.primaryName': first?.name };
  const config = {
    ...source,
    dom_id: '#swagger-ui',
    deepLinking: true,
    displayRequestDuration: true,
    // no call to the public validator service
    validatorUrl: null,
  };
  return `// generated by scoutkit: the documents of this server
window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(config)}, {
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'StandaloneLayout',
}));
`;
}
