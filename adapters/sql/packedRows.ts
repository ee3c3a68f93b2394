/**
 * SQLite reads with each row packed into one JSON text (`json_object(...)`), parsed in JS.
 *
 * The sqlite3 driver turns every column of every row into a JS value one native call at a
 * time, on the main thread: for a page of 50 wide rows (transactions: 31 columns) that costs
 * more than the indexed read itself. One text per row and JSON.parse return the same values
 * about a quarter sooner. Only statements that select one table's rows (`*`, `t.*` — no
 * computed values: a REAL would print with fewer digits than a double holds) are packed; the
 * tables hold text and integers only, which JSON carries unchanged (integers beyond 2^53 lose
 * the same precision as with the driver's doubles). A statement's columns are learnt from its
 * first answer with rows, by its text; later runs are packed.
 */

/** The one method of a sqlite3 connection the reads go through. */
export interface AllConnection {
  all(sql: string, bindings: unknown, callback: (this: unknown, err: Error | null, rows: unknown) => void): unknown;
}

/**
 * `select *` or `select t.*`, maybe a seekPages branch number, `from`: one table's columns, each
 * name once (a further column could repeat one of them: the driver keeps the last, a subquery the first)
 */
const TABLE_ROWS = /^select (?:(?:`\w+`|\w+)\.)?\*(?:, \d+ as seek_branch)? from /i;
/** statement texts remembered per connection (packed text, or null: not packed) */
const MAX_TEXTS = 2000;
/** json_object takes at most 127 arguments (SQLITE_MAX_FUNCTION_ARG): name and value per column */
const MAX_COLUMNS = 63;

function packedText(sql: string, rows: unknown): string | null {
  // a bare * over a join can repeat a column name too
  if (!TABLE_ROWS.test(sql) || (/^select \*/i.test(sql) && /\bjoin\b/i.test(sql))) return null;
  const first: unknown = Array.isArray(rows) ? rows[0] : undefined;
  if (typeof first !== 'object' || first === null) return null;
  const columns = Object.keys(first);
  if (columns.length > MAX_COLUMNS || columns.some((c) => !/^\w+$/.test(c))) return null;
  return `select json_object(${columns.map((c) => `'${c}', "${c}"`).join(', ')}) as packed_row from (${sql})`;
}

function unpacked(rows: unknown): unknown[] {
  if (!Array.isArray(rows)) throw new TypeError('expected rows from the database');
  return rows.map((r: unknown) => {
    const text: unknown = typeof r === 'object' && r !== null && 'packed_row' in r ? r.packed_row : undefined;
    if (typeof text !== 'string') throw new TypeError('expected a packed row');
    return JSON.parse(text) as unknown;
  });
}

/** Make a read-only connection answer its row reads packed (see above). */
export function packRows(conn: AllConnection): void {
  const texts = new Map<string, string | null>();
  const all = conn.all.bind(conn);
  conn.all = (sql, bindings, callback) => {
    const packed = texts.get(sql);
    if (packed === undefined || packed === null) {
      return all(sql, bindings, function (this: unknown, err, rows) {
        if (err === null && packed === undefined && Array.isArray(rows) && rows.length > 0) {
          if (texts.size >= MAX_TEXTS) texts.clear();
          texts.set(sql, packedText(sql, rows));
        }
        callback.call(this, err, rows);
      });
    }
    return all(packed, bindings, function (this: unknown, err, rows) {
      if (err !== null) return callback.call(this, err, rows);
      let out: unknown[];
      try {
        out = unpacked(rows);
      } catch (e) {
        return callback.call(this, e instanceof Error ? e : new Error(String(e)), undefined);
      }
      callback.call(this, null, out);
    });
  };
}
