/**
 * An explorer over a store loaded with the fixture chain, and a client-like page walker.
 */
import type { DataSink, DataSource, Explorer, ExplorerResponse, JsonValue } from '../../lib/index.ts';
import { createExplorer, toJson } from '../../lib/index.ts';
import type { FixtureChain } from '../../fixture/index.ts';
import { loadFixtureChain } from '../../fixture/index.ts';

export type Store = DataSource & DataSink & { close?: () => Promise<void> };

export interface Loaded {
  readonly explorer: Explorer;
  readonly chain: FixtureChain;
  readonly store: Store;
}

/**
 * The explorer's clock in the suite: 2023-11-15T00:05:00Z, five minutes into the day after the
 * fixture chain's blocks (2023-11-14, 22:13 to 22:43 UTC), so "yesterday" (`/stats`, the
 * transactions chart), "the last 24 h" and the 3h / 1d / 7d / 30d hot-contract windows all hold
 * the whole chain, and the 5m / 1h windows none of it.
 */
export const FIXTURE_NOW = Date.parse('2023-11-15T00:05:00Z');

export async function loadExplorer(open: () => Promise<Store>): Promise<Loaded> {
  const store = await open();
  const chain = await loadFixtureChain(store);
  return { store, chain, explorer: createExplorer({ chains: { '1': store }, now: () => FIXTURE_NOW }) };
}

/** Query values as a client sends them back: every value of next_page_params as a string. */
export function asQuery(params: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) out[k] = v === null ? 'null' : typeof v === 'string' ? v : toJson(v as JsonValue);
  return out;
}

export type Body = Record<string, unknown>;
export const bodyOf = (r: ExplorerResponse): Body => r.body as unknown as Body;

/** A getter of per-instance bodies that must answer 200 (anything else throws, with the body). */
export function okGetter(explorer: Explorer): (path: string, query?: Record<string, string>) => Promise<Body> {
  return async (path, query = {}) => {
    const r = await explorer.handle({ path: `/api/v2${path}`, query });
    if (r.status !== 200) throw new Error(`${path} → ${r.status} ${toJson(r.body)}`);
    return bodyOf(r);
  };
}

export interface Walk {
  readonly items: readonly Body[];
  readonly pages: number;
  /** next_page_params of every page but the last */
  readonly cursors: readonly Record<string, unknown>[];
}

/** Follow next_page_params (sent back as query strings, with the filters) until null. */
export async function walk(explorer: Explorer, path: string, query: Record<string, string> = {}, maxPages = 500): Promise<Walk> {
  const items: Body[] = [];
  const cursors: Record<string, unknown>[] = [];
  let next: Record<string, string> | null = {};
  let pages = 0;
  while (next !== null) {
    const r = await explorer.handle({ path, query: { ...query, ...next } });
    if (r.status !== 200) throw new Error(`${path} ${JSON.stringify(next)} → ${r.status} ${toJson(r.body)}`);
    const body = bodyOf(r);
    items.push(...(body['items'] as Body[]));
    pages += 1;
    const np = body['next_page_params'] as Record<string, unknown> | null;
    if (np !== null) cursors.push(np);
    next = np === null ? null : asQuery(np);
    if (pages > maxPages) throw new Error(`${path}: more than ${maxPages} pages`);
  }
  return { items, pages, cursors };
}
