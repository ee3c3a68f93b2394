/**
 * A JSON-RPC proxy in front of a node that misbehaves the way real nodes and providers do,
 * seeded so a run can be repeated. Per HTTP request (with probability `rate`): latency, 429 with
 * Retry-After, 502/503 HTML pages, a connection reset, a body cut mid-JSON, a shuffled batch.
 * Per call (with probability `rate`): a single batch entry failing (-32005 / -32603), a lagging
 * backend (head 1–2 blocks back, null for the newest blocks and their receipts, "header not
 * found" for reads at them), trace timeouts in both of geth's forms (`-32000 execution timeout`
 * for the block, `[{txHash, error: "execution timeout"}]` per transaction), and eth_call
 * timeouts (`-32000 execution aborted (timeout = 5s)`). Some blocks are "heavy": their block
 * trace always times out, so only per-transaction tracing gets them.
 *
 * With `announce`, the node's chain is revealed a block at a time (the head grows every
 * `everyMs`), so an indexer that follows it works at the tip, where a lagging backend matters;
 * blocks past the announced head are answered as a node that does not have them would.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prng } from '../../fixture/chain.ts';

export type FaultKind =
  | 'latency'
  | 'http-429'
  | 'http-502'
  | 'http-503'
  | 'reset'
  | 'cut-body'
  | 'shuffle'
  | 'entry-32005'
  | 'entry-32603'
  | 'lag'
  | 'trace-timeout'
  | 'trace-timeout-tx'
  /** a block whose block trace always times out (counted once per block and tracer) */
  | 'trace-heavy'
  | 'call-timeout';

export const HTTP_FAULTS: readonly FaultKind[] = ['latency', 'http-429', 'http-502', 'http-503', 'reset', 'cut-body', 'shuffle'];
export const CALL_FAULTS: readonly FaultKind[] = ['entry-32005', 'entry-32603', 'lag', 'trace-timeout', 'trace-timeout-tx', 'call-timeout'];

interface Call {
  readonly jsonrpc?: string;
  readonly id: number | string | null;
  readonly method: string;
  readonly params?: unknown[];
}
interface Reply {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string };
}

export interface FaultProxyOptions {
  /**
   * the kinds' rotation, shared by several proxies (one per seed): each goes on where the last
   * stopped, so that a handful of faults per proxy still covers every kind across them
   */
  readonly rotation?: Map<string, number>;
  readonly upstream: string;
  readonly seed: number;
  /** probability that a request / a call is faulted (default 0.05) */
  readonly rate?: number;
  /** the kinds to inject (default all) */
  readonly kinds?: readonly FaultKind[];
  /** which calls may be faulted per call (default all) */
  readonly eligible?: (call: { readonly method: string; readonly params: readonly unknown[] }) => boolean;
  /** reveal the chain a block at a time from `from`, one more every `everyMs` */
  readonly announce?: { readonly from: number; readonly everyMs: number };
  /** every n-th block (by number, with transactions) is heavy: its block trace always times out (default none) */
  readonly heavyEvery?: number;
}

export interface FaultProxy {
  readonly url: string;
  /** faults injected, by kind */
  readonly faults: Record<string, number>;
  /** calls seen (batch entries count one each) */
  calls(): number;
  close(): Promise<void>;
}

const HTML = (status: number, text: string): string =>
  `<html>\r\n<head><title>${status} ${text}</title></head>\r\n<body>\r\n<center><h1>${status} ${text}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const blockParam = (v: unknown): number | null => (typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v) ? Number(BigInt(v)) : null);

/** the block a call is about, when it names one by number */
function blockOf(call: Call): number | null {
  const p = call.params ?? [];
  switch (call.method) {
    case 'eth_getBlockByNumber':
    case 'eth_getBlockReceipts':
    case 'debug_traceBlockByNumber':
      return blockParam(p[0]);
    case 'eth_call':
    case 'eth_getCode':
    case 'eth_getBalance':
      return blockParam(p[1]);
    default:
      return null;
  }
}

/** what a node answers for a block it does not have */
function absent(call: Call, n: number): Reply {
  const id = call.id;
  switch (call.method) {
    case 'eth_getBlockByNumber':
    case 'eth_getBlockReceipts':
    case 'eth_getTransactionReceipt':
      return { jsonrpc: '2.0', id, result: null };
    case 'debug_traceBlockByNumber':
      return { jsonrpc: '2.0', id, error: { code: -32000, message: `block #${n} not found` } };
    default:
      return { jsonrpc: '2.0', id, error: { code: -32000, message: 'header not found' } };
  }
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const random = prng(options.seed);
  const rate = options.rate ?? 0.05;
  const kinds = new Set(options.kinds ?? [...HTTP_FAULTS, ...CALL_FAULTS]);
  const httpKinds = HTTP_FAULTS.filter((k) => kinds.has(k));
  const faults: Record<string, number> = {};
  const count = (k: FaultKind): void => {
    faults[k] = (faults[k] ?? 0) + 1;
  };
  // kinds taken in turn (from a seeded start), so a short run still sees each kind
  const turns = options.rotation ?? new Map<string, number>();
  /** the next kind of the list's rotation that fits */
  // a kind whose turn came on a call it does not fit (a shuffle on a single request) is owed, and
  // given at the next call it fits: every kind is injected however the calls are mixed
  const owed = new Map<'http' | 'call', FaultKind[]>();
  const pick = (list: 'http' | 'call', fitting: readonly FaultKind[]): FaultKind => {
    const debts = owed.get(list) ?? [];
    owed.set(list, debts);
    const due = debts.findIndex((k) => fitting.includes(k));
    if (due >= 0) return debts.splice(due, 1)[0] as FaultKind;
    const all = list === 'http' ? HTTP_FAULTS : CALL_FAULTS;
    const turn = turns.get(list) ?? Math.floor(random() * all.length);
    for (let i = 0; i < all.length; i++) {
      const k = all[(turn + i) % all.length] as FaultKind;
      if (fitting.includes(k)) {
        turns.set(list, turn + i + 1);
        return k;
      }
      if (!debts.includes(k)) debts.push(k);
    }
    return fitting[0] as FaultKind;
  };
  const heavySeen = new Set<string>();
  let calls = 0;
  const started = Date.now();
  const announced = (): number => (options.announce === undefined ? Infinity : options.announce.from + Math.floor((Date.now() - started) / options.announce.everyMs));
  const heavy = (n: number): boolean => options.heavyEvery !== undefined && n > 0 && n % options.heavyEvery === 0;

  const upstream = async (batch: readonly Call[]): Promise<Reply[]> => {
    if (batch.length === 0) return [];
    const res = await fetch(options.upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
    const body = (await res.json()) as Reply[] | Reply;
    return Array.isArray(body) ? body : [body];
  };

  /** answer one call: faulted, as a node without the block, or by the node */
  const answer = async (call: Call, forward: (c: Call) => Promise<Reply>): Promise<Reply> => {
    const id = call.id;
    const params = call.params ?? [];
    const head = announced();
    const n = blockOf(call);
    const eligible = options.eligible?.({ method: call.method, params }) ?? true;
    let fault: FaultKind | null = null;
    if (eligible && random() < rate) {
      const fitting = CALL_FAULTS.filter((k) => {
        if (!kinds.has(k)) return false;
        if (k === 'trace-timeout' || k === 'trace-timeout-tx') return call.method === 'debug_traceBlockByNumber';
        if (k === 'call-timeout') return call.method === 'eth_call';
        if (k === 'lag') return call.method === 'eth_blockNumber' || call.method === 'eth_getTransactionReceipt' || (n !== null && n > 0);
        return true;
      });
      if (fitting.length > 0) fault = pick('call', fitting);
    }
    // the backend that answers is `lag` blocks behind the announced head
    const lagBy = fault === 'lag' ? 1 + Math.floor(random() * 2) : 0;
    const backendHead = head - lagBy;
    if (fault !== null) count(fault);
    switch (fault) {
      case 'entry-32005':
        return { jsonrpc: '2.0', id, error: { code: -32005, message: 'request rate exceeded' } };
      case 'entry-32603':
        return { jsonrpc: '2.0', id, error: { code: -32603, message: 'internal error' } };
      case 'trace-timeout':
        return { jsonrpc: '2.0', id, error: { code: -32000, message: 'execution timeout' } };
      case 'call-timeout':
        return { jsonrpc: '2.0', id, error: { code: -32000, message: 'execution aborted (timeout = 5s)' } };
      case 'lag':
        if (call.method === 'eth_getTransactionReceipt') return { jsonrpc: '2.0', id, result: null };
        if (n !== null) return absent(call, n);
        break;
      default:
        break;
    }
    if (n !== null && n > backendHead) return absent(call, n);
    if (call.method === 'debug_traceBlockByNumber' && n !== null && heavy(n)) {
      const key = `${n} ${JSON.stringify(params[1])}`;
      if (!heavySeen.has(key)) count('trace-heavy'); // one per block and tracer, however often asked
      heavySeen.add(key);
      return { jsonrpc: '2.0', id, error: { code: -32000, message: 'execution timeout' } };
    }
    const reply = await forward(call);
    if (call.method === 'eth_blockNumber' && typeof reply.result === 'string') {
      const real = Number(BigInt(reply.result));
      return { ...reply, result: `0x${Math.max(0, Math.min(real, backendHead)).toString(16)}` };
    }
    if (fault === 'trace-timeout-tx' && Array.isArray(reply.result) && reply.result.length > 0) {
      const entries = reply.result as { txHash?: string }[];
      const at = Math.floor(random() * entries.length);
      return { ...reply, result: entries.map((e, i) => (i === at ? { txHash: e.txHash, error: 'execution timeout' } : e)) };
    }
    return reply;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
    const isBatch = Array.isArray(parsed);
    const batch = isBatch ? parsed : [parsed];
    calls += batch.length;

    let httpFault: FaultKind | null = null;
    const anyEligible = batch.some((c) => options.eligible?.({ method: c.method, params: c.params ?? [] }) ?? true);
    if (anyEligible && httpKinds.length > 0 && random() < rate) {
      const fitting = httpKinds.filter((k) => k !== 'shuffle' || (isBatch && batch.length > 1));
      if (fitting.length > 0) httpFault = pick('http', fitting);
    }
    if (httpFault !== null) count(httpFault);
    switch (httpFault) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'http-429':
        res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' }).end('Too Many Requests');
        return;
      case 'http-502':
        res.writeHead(502, { 'content-type': 'text/html' }).end(HTML(502, 'Bad Gateway'));
        return;
      case 'http-503':
        res.writeHead(503, { 'content-type': 'text/html' }).end(HTML(503, 'Service Temporarily Unavailable'));
        return;
      case 'latency':
        await sleep(20 + Math.floor(random() * 280));
        break;
      default:
        break;
    }

    // the calls the node answers go to it in one batch
    const toNode: Call[] = [];
    const waiting = new Map<Call, (r: Reply) => void>();
    const forward = (c: Call): Promise<Reply> =>
      new Promise((resolve) => {
        toNode.push(c);
        waiting.set(c, resolve);
      });
    const replies = batch.map((c) => answer(c, forward));
    // let every answer() reach its forward() (or return) before the batch goes out
    await new Promise((r) => setImmediate(r));
    const fromNode = await upstream(toNode);
    const byId = new Map(fromNode.map((r) => [r.id, r]));
    for (const [c, resolve] of waiting) resolve(byId.get(c.id) ?? { jsonrpc: '2.0', id: c.id, error: { code: -32603, message: 'no answer' } });
    const out = await Promise.all(replies);
    if (httpFault === 'shuffle') out.sort(() => random() - 0.5);
    const text = JSON.stringify(isBatch ? out : out[0]);
    if (httpFault === 'cut-body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    faults,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
