/**
 * Keyset paging shared by every list: page size from `items_count` (default 50, clamped to
 * MAX_PAGE_SIZE), a probe of one extra record to know whether a next page exists, and the
 * list envelope.
 */
import type { JsonObject, JsonValue } from '../json.ts';
import { integer } from '../params/codecs.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** `items_count` (minimum 1) — the page size; values above the maximum are clamped. */
export const itemsCount = integer({ min: 1 });

export function pageSize(query: { readonly items_count?: number; readonly limit?: number }): number {
  const asked = query.items_count ?? (query.limit !== undefined && query.limit > 0 ? query.limit : undefined) ?? DEFAULT_PAGE_SIZE;
  return Math.min(asked, MAX_PAGE_SIZE);
}

export interface Paged<R> {
  readonly rows: readonly R[];
  /** the last row shown, when another page follows */
  readonly last: R | null;
}

/** Split a probe of `size + 1` rows into the page and its continuation. */
export function splitPage<R>(probe: readonly R[], size: number): Paged<R> {
  if (probe.length <= size) return { rows: probe, last: null };
  const rows = probe.slice(0, size);
  return { rows, last: rows[rows.length - 1] ?? null };
}

/** A list's body: its items and the keys of the next page (the `page` codec of lib/schema/page.ts). */
export type ListBody<T> = {
  readonly items: readonly T[];
  readonly next_page_params: JsonObject | null;
};

export const listBody = <T,>(items: readonly T[], next: JsonObject | null): ListBody<T> => ({
  items,
  next_page_params: next,
});

/** Request parameters echoed into next_page_params (filters that are not `type`). */
export function echo(raw: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = raw[n];
    if (v !== undefined) out[n] = v;
  }
  return out;
}

/**
 * Fetch until `want` rows pass `keep` (or the source is exhausted), for filters the query
 * cannot express. `fetch(after, limit)` continues after the last row it returned.
 */
export async function collect<R, C>(
  fetch: (after: C | null, limit: number) => Promise<readonly R[]>,
  cursorOf: (r: R) => C,
  first: C | null,
  want: number,
  keep: (r: R) => boolean,
): Promise<R[]> {
  const out: R[] = [];
  let after = first;
  for (;;) {
    const batch = await fetch(after, want);
    for (const r of batch) if (keep(r)) out.push(r);
    const last = batch[batch.length - 1];
    if (out.length >= want || batch.length < want || last === undefined) return out.slice(0, want);
    after = cursorOf(last);
  }
}
