/**
 * The server side of the out-of-process bench (bench/host.ts runs it as a child process): the
 * fixture chain in a store (`memory` or `sqlite`, argv[2]), a `scoutkit serve`-equivalent server
 * (createServer with metrics and docs on, a key with a plan that never limits, no request log),
 * and beside it a bare Koa + @koa/router answering the same paths with the same bytes the server
 * sends: identity, or, when the request's Accept-Encoding names it, the server's own gzip / brotli
 * bytes (precompressed: the bare server does no work). Prints one JSON line (the URLs and the
 * paths) once both listen; exits on SIGTERM (a --cpu-prof profile is written then).
 *
 * SCOUTKIT_BENCH_ROOT: import the host, lib, adapters and fixture from another checkout (the
 * "before" code, e.g. `git archive 9fc3722`); default this one.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Koa from 'koa';
import Router from '@koa/router';

const root = resolve(process.env.SCOUTKIT_BENCH_ROOT ?? join(import.meta.dirname, '..'));
const load = (path: string): Promise<Record<string, unknown>> => import(pathToFileURL(join(root, path)).href) as Promise<Record<string, unknown>>;
/* eslint-disable @typescript-eslint/no-explicit-any -- modules of another checkout, typed by their use */
type Fn = (...args: never[]) => any;
const host = await load('host/index.ts');
const memory = await load('adapters/memory/index.ts');
const sql = await load('adapters/sql/index.ts');
const fixture = await load('fixture/index.ts');

export const KEY = 'bench-key';
const kind = process.argv[2] ?? 'memory';
const dir = mkdtempSync(join(tmpdir(), 'scoutkit-oop-'));
const store = kind === 'sqlite' ? await (sql['openSqlStore'] as Fn)(`sqlite:${join(dir, 'bench.sqlite')}` as never) : (memory['createMemoryStore'] as Fn)();
const { facts } = (await (fixture['loadFixtureChain'] as Fn)(store as never)) as { facts: { transactions: { eip1559: string }; tokens: { erc20: string } } };

const server = (host['createServer'] as Fn)({
  chains: { '1': store },
  keys: [{ key: KEY, plan: { name: 'bench', requestsPerSecond: 1e9, credits: 1e12, creditPeriod: 'month' } }],
  log: false,
} as never) as { listen(port: number, host: string): Promise<{ url: string }>; close(): Promise<void> };
const { url } = await server.listen(0, '127.0.0.1');

const targets = [
  { name: 'list   token-transfers', path: '/api/v2/token-transfers' },
  { name: 'list   blocks', path: '/api/v2/blocks' },
  { name: 'detail transaction', path: `/api/v2/transactions/${facts.transactions.eip1559}` },
];

/** The server's answer to a path with this Accept-Encoding, as bytes on the wire. */
function fetchRaw(path: string, acceptEncoding?: string): Promise<{ bytes: Buffer; encoding?: string }> {
  return new Promise((done, fail) => {
    const headers: Record<string, string> = { 'x-api-key': KEY };
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
    http
      .get(`${url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) fail(new Error(`${path}: ${res.statusCode}`));
          const encoding = res.headers['content-encoding'];
          done(encoding === undefined ? { bytes: Buffer.concat(chunks) } : { bytes: Buffer.concat(chunks), encoding });
        });
      })
      .on('error', fail);
  });
}

const router = new Router();
const sizes: Record<string, { identity: number; gzip?: number; br?: number }> = {};
for (const target of targets) {
  const plain = await fetchRaw(target.path);
  const gz = await fetchRaw(target.path, 'gzip');
  const br = await fetchRaw(target.path, 'br');
  sizes[target.path] = { identity: plain.bytes.length, ...(gz.encoding ? { gzip: gz.bytes.length } : {}), ...(br.encoding ? { br: br.bytes.length } : {}) };
  router.get(target.path, (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    const accept = ctx.get('accept-encoding');
    // the client's first choice we hold (the bench sends "gzip, br" or nothing)
    const chosen = accept.includes('gzip') && gz.encoding ? gz : accept.includes('br') && br.encoding ? br : plain;
    if (chosen.encoding !== undefined) ctx.set('content-encoding', chosen.encoding);
    if (accept !== '') ctx.vary('accept-encoding');
    ctx.body = chosen.bytes;
  });
}
const bare = new Koa();
bare.use(router.routes());
const bareServer: Server = bare.listen(0, '127.0.0.1');
await once(bareServer, 'listening');
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

process.stdout.write(`${JSON.stringify({ url, bareUrl, targets, sizes })}\n`);
process.on('SIGTERM', () => {
  void (async () => {
    bareServer.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  })();
});
