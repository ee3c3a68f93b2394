/**
 * `scoutkit index --metrics-port`: the standalone indexer's Prometheus metrics (prom-client, a
 * registry of its own plus the process metrics, as the server's host/metrics.ts) and `/health`,
 * on a small HTTP server of their own.
 *
 * Series (the `chain` label is the chain indexed, known from the `start` event):
 * - `scoutkit_indexer_head_block`, `scoutkit_indexer_node_head_block`, `scoutkit_indexer_lag_blocks`
 *   (the same names as an in-process indexer's in `serve`), `scoutkit_indexer_blocks_per_second`,
 *   `scoutkit_indexer_blocks_total` and `scoutkit_indexer_transactions_total` (written by this run);
 * - `scoutkit_indexer_rpc_retries_total{kind}`: node reads retried, by the class of their failure
 *   (timeout, rate-limit, http-5xx, network, node-error, not-yet);
 * - `scoutkit_indexer_held_total{reason}` and `scoutkit_indexer_reads_held`: steps held back
 *   because the node could not answer them (nothing stored from them), and how many distinct
 *   steps are held now (since the last write);
 * - `scoutkit_indexer_reorgs_total`;
 * - `scoutkit_indexer_waits_total{on}`, `scoutkit_indexer_waiting{on}` (1 during an outage of the
 *   node or the store) and `scoutkit_indexer_outage_seconds_total{on}` (outages waited out);
 * - `scoutkit_indexer_lease_held` (1 while this process holds the store's writer lease) and
 *   `scoutkit_indexer_lease_changes_total{state}`;
 * - `scoutkit_indexer_up`: 1 while the run loop is alive (what `/health` answers).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Counter, Gauge, Registry } from 'prom-client';
import type { IndexerEvent } from '../lib/indexer/index.ts';
import { METRIC_PREFIX, processMetricsRegistry } from './metrics.ts';

export interface IndexerMetrics {
  readonly registry: Registry;
  /** the indexer's `onEvent` listener */
  onEvent(event: IndexerEvent): void;
  /** a node read retried; `kind` is its failure class (`failureKind` of scoutkit/rpc) */
  onRetry(kind: string): void;
  /** the run loop is alive (true) or has ended (false) */
  setAlive(alive: boolean): void;
  readonly alive: boolean;
  text(): Promise<string>;
}

export function createIndexerMetrics(options: { readonly processMetrics?: boolean } = {}): IndexerMetrics {
  const own = new Registry();
  const registers = [own];
  const P = `${METRIC_PREFIX}indexer_`;
  const gauge = (name: string, help: string, labelNames: readonly string[] = ['chain']) => new Gauge({ name: `${P}${name}`, help, labelNames, registers });
  const counter = (name: string, help: string, labelNames: readonly string[]) => new Counter({ name: `${P}${name}`, help, labelNames, registers });

  const head = gauge('head_block', 'highest block the indexer has written');
  const nodeHead = gauge('node_head_block', "the node's head when the indexer last asked");
  const lag = gauge('lag_blocks', 'node head minus indexed head');
  const rate = gauge('blocks_per_second', 'blocks written per second over the last few seconds');
  const blocks = counter('blocks_total', 'blocks written by this run', ['chain']);
  const transactions = counter('transactions_total', 'transactions written by this run', ['chain']);
  const retries = counter('rpc_retries_total', 'node reads retried, by the class of their failure', ['kind']);
  const held = counter('held_total', 'steps held back because the node could not answer them now, by reason', ['reason']);
  const heldNow = gauge('reads_held', 'distinct steps held back since the last write (failed reads pending)', []);
  const reorgs = counter('reorgs_total', 'reorgs rolled back', ['chain']);
  const waits = counter('waits_total', 'waits on an outage of the node or the store (one per retry)', ['on']);
  const waiting = gauge('waiting', '1 while waiting out an outage of the node or the store', ['on']);
  const outage = counter('outage_seconds_total', 'seconds of outages waited out, by what was out', ['on']);
  const leaseHeld = gauge('lease_held', "1 while this indexer holds the store's writer lease", []);
  const leaseChanges = counter('lease_changes_total', 'lease state changes (acquired, standby, lost)', ['state']);
  const up = gauge('up', '1 while the run loop is alive', []);
  for (const on of ['node', 'store']) {
    waiting.set({ on }, 0);
    waits.inc({ on }, 0);
    outage.inc({ on }, 0);
  }
  heldNow.set(0);
  leaseHeld.set(0);
  up.set(0);
  const registry = (options.processMetrics ?? true) ? Registry.merge([own, processMetricsRegistry()]) : own;

  let chain = '';
  let written = { blocks: 0, transactions: 0 };
  const pending = new Set<string>();
  let alive = false;

  const wrote = (indexedHead: number | null, node: number): void => {
    if (indexedHead !== null) head.set({ chain }, indexedHead);
    nodeHead.set({ chain }, node);
    lag.set({ chain }, Math.max(0, node - (indexedHead ?? -1)));
    pending.clear();
    heldNow.set(0);
  };

  return {
    registry,
    get alive() {
      return alive;
    },
    setAlive(value) {
      alive = value;
      up.set(value ? 1 : 0);
    },
    onRetry(kind) {
      retries.inc({ kind });
    },
    onEvent(event) {
      switch (event.type) {
        case 'start':
          chain = String(event.chainId);
          nodeHead.set({ chain }, event.nodeHead);
          blocks.inc({ chain }, 0);
          transactions.inc({ chain }, 0);
          reorgs.inc({ chain }, 0);
          rate.set({ chain }, 0);
          written = { blocks: 0, transactions: 0 };
          return;
        case 'progress':
          wrote(event.indexedHead, event.nodeHead);
          rate.set({ chain }, event.blocksPerSecond);
          blocks.inc({ chain }, Math.max(0, event.blocks - written.blocks));
          transactions.inc({ chain }, Math.max(0, event.transactions - written.transactions));
          written = { blocks: event.blocks, transactions: event.transactions };
          return;
        case 'caught-up':
          wrote(event.indexedHead, event.nodeHead);
          rate.set({ chain }, 0);
          return;
        case 'reorg':
          reorgs.inc({ chain });
          return;
        case 'held':
          held.inc({ reason: event.reason });
          pending.add(event.what);
          heldNow.set(pending.size);
          return;
        case 'waiting':
          waits.inc({ on: event.on });
          waiting.set({ on: event.on }, 1);
          return;
        case 'resumed':
          waiting.set({ on: event.on }, 0);
          outage.inc({ on: event.on }, event.afterMs / 1000);
          return;
        case 'lease':
          leaseChanges.inc({ state: event.state });
          leaseHeld.set(event.state === 'acquired' ? 1 : 0);
          return;
        default:
          return;
      }
    },
    text: () => registry.metrics(),
  };
}

export interface MetricsEndpoint {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Serve `GET /metrics` (Prometheus text) and `GET /health` (200 while the run loop is alive, else 503). */
export async function serveIndexerMetrics(metrics: IndexerMetrics, port: number, host = '127.0.0.1'): Promise<MetricsEndpoint> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      json(405, { message: 'Method not allowed' });
      return;
    }
    if (path === '/health') {
      json(metrics.alive ? 200 : 503, { status: metrics.alive ? 'ok' : 'stopped' });
      return;
    }
    if (path !== '/metrics') {
      json(404, { message: 'Not found: /metrics or /health' });
      return;
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(text);
      },
      (e: unknown) => json(500, { message: `metrics: ${e instanceof Error ? e.message : String(e)}` }),
    );
  });
  server.listen(port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e as Error))]);
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
