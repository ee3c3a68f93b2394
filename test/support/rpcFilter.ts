/**
 * A JSON-RPC proxy in front of a node that answers some calls itself — a method refused as a
 * node without it refuses it (-32601), or any answer a test wants (garbage, an error) — and
 * forwards the rest, single calls and batches alike. Listens on 127.0.0.1.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcCall {
  readonly id: number | string | null;
  readonly method: string;
  readonly params?: readonly unknown[];
}
export type RpcReply = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string } };

export interface RpcFilter {
  readonly url: string;
  /** calls seen, by method */
  readonly seen: Map<string, number>;
  stop(): Promise<void>;
}

/** the answer of a node that does not serve `method` */
export const refused = (method: string): RpcReply => ({ error: { code: -32601, message: `the method ${method} does not exist/is not available` } });

/** `answer` returns the reply for a call it takes, undefined for one to forward. */
export async function startRpcFilter(upstream: string, answer: (call: RpcCall) => RpcReply | undefined): Promise<RpcFilter> {
  const seen = new Map<string, number>();
  const forward = async (calls: readonly RpcCall[]): Promise<unknown[]> => {
    if (calls.length === 0) return [];
    const res = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(calls.map((c) => ({ jsonrpc: '2.0', ...c }))) });
    const body = (await res.json()) as unknown;
    if (!Array.isArray(body)) throw new Error(`upstream answered a batch with ${JSON.stringify(body).slice(0, 200)}`);
    return body;
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcCall | RpcCall[];
        const calls = Array.isArray(parsed) ? parsed : [parsed];
        const own = calls.map((c) => {
          seen.set(c.method, (seen.get(c.method) ?? 0) + 1);
          const reply = answer(c);
          return reply === undefined ? undefined : { jsonrpc: '2.0', id: c.id, ...reply };
        });
        const forwarded = await forward(calls.filter((_, i) => own[i] === undefined));
        const byId = new Map(forwarded.map((r) => [(r as { id: unknown }).id, r]));
        const replies = calls.map((c, i) => own[i] ?? byId.get(c.id));
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(Array.isArray(parsed) ? replies : replies[0]));
      })().catch((e: unknown) => {
        res.statusCode = 502;
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
