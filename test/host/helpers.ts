/**
 * Test helpers: a real HTTP listener on an ephemeral port, and a fetch wrapper.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import type { EndpointRequest, Explorer, ExplorerResponse } from '../../lib/index.ts';
import { createMemoryStore } from '../../adapters/memory/index.ts';
import type { MemoryStore } from '../../adapters/memory/index.ts';
import { loadFixtureChain } from '../../fixture/index.ts';
import type { FixtureFacts } from '../../fixture/index.ts';

export interface Listening {
  readonly url: string;
  close(): Promise<void>;
}

export async function listen(app: Koa): Promise<Listening> {
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
}

export async function request(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The four limit headers of a reply, as numbers (NaN when absent). */
export function limitHeaders(reply: Reply): {
  limit: number;
  remaining: number;
  reset: number;
  credits: number;
} {
  const n = (name: string) => Number(reply.headers.get(name) ?? NaN);
  return {
    limit: n('x-ratelimit-limit'),
    remaining: n('x-ratelimit-remaining'),
    reset: n('x-ratelimit-reset'),
    credits: n('x-credits-remaining'),
  };
}

/** An Explorer that echoes the routed request: 200 with the request, 404 for an unknown chain. */
export function echoExplorer(chainIds: readonly string[] = ['1']): Explorer & { readonly seen: EndpointRequest[] } {
  const seen: EndpointRequest[] = [];
  const dispatch = async (req: EndpointRequest): Promise<ExplorerResponse> => {
    seen.push(req);
    if (!chainIds.includes(req.chainId)) return { status: 404, headers: {}, body: { message: 'Not found' } };
    return {
      status: 200,
      headers: {},
      body: { endpoint: req.endpoint, chainId: req.chainId, params: { ...req.params }, big: 2n ** 70n },
    };
  };
  return {
    chainIds,
    defaultChain: chainIds[0] ?? '1',
    seen,
    dispatch,
    handle: async () => ({ status: 500, headers: {}, body: null }),
    rpc: async (req) => ({ status: 200, headers: {}, body: { dialect: 'rpc', chainId: req.chainId } }),
    etherscan: async (req) => ({ status: 200, headers: {}, body: { dialect: 'etherscan', chainId: req.chainId } }),
  };
}

/** The fixture chain in a memory store, plus an empty second chain; built once per test file. */
let fixture: Promise<{ chain1: MemoryStore; chain5: MemoryStore; facts: FixtureFacts }> | undefined;
export function fixtureChains(): Promise<{ chain1: MemoryStore; chain5: MemoryStore; facts: FixtureFacts }> {
  fixture ??= (async () => {
    const chain1 = createMemoryStore();
    const { facts } = await loadFixtureChain(chain1);
    return { chain1, chain5: createMemoryStore(), facts };
  })();
  return fixture;
}
