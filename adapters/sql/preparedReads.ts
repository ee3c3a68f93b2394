/**
 * SQLite reads through statements prepared once per connection and text, not once per run.
 *
 * The sqlite3 driver's `all(sql, …)` compiles the text every time, on the connection's worker
 * thread: a large share of a short indexed read (the compound seeks of an OR filter the most;
 * figures: bench/RESULTS.md). Here a read (`select`, `with`) that answered once is prepared in
 * the background and kept; its later runs bind and step the kept statement. A text that fails to
 * prepare is never kept (it answers its error through the plain `all`, as before). The newest MAX_STATEMENTS texts
 * are kept per connection, each finalized when dropped and all before the connection closes
 * (SQLite refuses to close over unfinalized statements). The driver runs one statement's calls in
 * order, so two callers of one text on one connection wait for each other, as on the connection.
 * A kept statement recompiles itself when the schema changes (sqlite3_prepare_v2).
 */
import type { AllConnection } from './packedRows.ts';

type Done = (err: Error | null) => void;

/** A statement of the sqlite3 driver: bound and stepped by `all`, freed by `finalize`. */
export interface KeptStatement {
  all(bindings: unknown, callback: (this: unknown, err: Error | null, rows: unknown) => void): unknown;
  finalize(callback: Done): unknown;
}

/** The methods of a sqlite3 connection that prepared reads wrap. */
export interface PreparingConnection extends AllConnection {
  prepare(sql: string, callback: Done): KeptStatement;
  close(callback?: Done): unknown;
}

/** statements kept per connection (a text repeats per query shape; IN lists of other lengths are other texts) */
export const MAX_STATEMENTS = 256;

/** texts kept: reads (the read-only pool runs nothing else through all) */
const READS = /^\s*(select|with)\b/i;

export function isPreparingConnection(c: AllConnection): c is PreparingConnection {
  return 'prepare' in c && typeof c.prepare === 'function' && 'close' in c && typeof c.close === 'function';
}

/** Make a connection run its reads through kept statements (see above). */
export function prepareReads(conn: PreparingConnection): void {
  /** kept statements, least recently run first */
  const kept = new Map<string, KeptStatement>();
  /** texts being prepared */
  const preparing = new Set<string>();
  /** statements of the driver made here and not yet finalized (prepared, being prepared, or being finalized) */
  let live = 0;
  let closing = false;
  /** the driver's close, waiting for `live` to reach 0 */
  let closeLater: (() => void) | null = null;
  const all = conn.all.bind(conn);
  const close = conn.close.bind(conn);

  const closeWhenNoneLive = (): void => {
    if (closeLater === null || live > 0) return;
    const go = closeLater;
    closeLater = null;
    go();
  };
  const finalize = (stmt: KeptStatement): void =>
    void stmt.finalize(() => {
      live -= 1;
      closeWhenNoneLive();
    });

  const keep = (sql: string): void => {
    if (closing || preparing.has(sql)) return;
    preparing.add(sql);
    live += 1;
    const stmt = conn.prepare(sql, (err) => {
      preparing.delete(sql);
      if (err !== null) {
        // the driver finalizes a statement that failed to prepare itself (a finalize call would never answer)
        live -= 1;
        return closeWhenNoneLive();
      }
      if (closing || kept.has(sql)) return finalize(stmt);
      kept.set(sql, stmt);
      if (kept.size <= MAX_STATEMENTS) return;
      const [oldest] = kept;
      if (oldest === undefined) return;
      kept.delete(oldest[0]);
      finalize(oldest[1]);
    });
  };

  conn.all = (sql, bindings, callback) => {
    const stmt = kept.get(sql);
    if (stmt === undefined) {
      return all(sql, bindings, function (this: unknown, err, rows) {
        if (err === null && READS.test(sql)) keep(sql);
        callback.call(this, err, rows);
      });
    }
    kept.delete(sql);
    kept.set(sql, stmt);
    return stmt.all(bindings ?? [], callback);
  };

  conn.close = (callback?: Done) => {
    closing = true;
    closeLater = () => void close(callback);
    for (const stmt of kept.values()) finalize(stmt);
    kept.clear();
    closeWhenNoneLive();
    return undefined;
  };
}
