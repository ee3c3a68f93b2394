/**
 * Postgres statements prepared once per connection and text (named statements), not parsed and
 * planned on every run.
 *
 * knex sends each query unnamed: the server parses, analyzes and plans its text every time, and
 * on a large chain planning the compound seek of an OR filter costs about as much as running it
 * (figures: bench/RESULTS.md). Here a text seen
 * a second time on a connection gets a name, so node-postgres parses it once and the server may
 * keep a generic plan (plan_cache_mode auto: only when it costs no more than the custom plans).
 * One-off texts (a first run) stay unnamed; at most MAX_NAMED texts are named per connection.
 * Results are the same either way; should the server refuse a kept plan because a table's
 * columns changed since ("cached plan must not change result type"), the text loses its name
 * and the statement runs once more unnamed.
 */

/** A node-postgres client, as knex calls it: `query({ text, values }, callback)`. */
export interface QueryingClient {
  query(config: unknown, ...rest: unknown[]): unknown;
}

/** texts named per connection */
export const MAX_NAMED = 500;
/** texts remembered as seen once, per connection, before the memory starts over */
const MAX_SEEN = 5000;
/** statements a name can serve: planned statements, not utility commands (SET, CREATE INDEX, VACUUM …) */
const PLANNED = /^\s*(select|with|insert|update|delete)\b/i;

interface TextQuery {
  readonly text: string;
  readonly values?: unknown;
  readonly name?: unknown;
}
const isTextQuery = (q: unknown): q is TextQuery => typeof q === 'object' && q !== null && 'text' in q && typeof q.text === 'string';

type Callback = (err: unknown, result: unknown) => void;

/** Postgres' refusal of a kept plan whose result columns changed (SQLSTATE 0A000) */
function isStalePlan(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '0A000' && 'message' in err && /cached plan/.test(String(err.message));
}

/** Make a client name its repeated statements (see above). */
export function nameStatements(client: QueryingClient): void {
  const names = new Map<string, string>();
  const seen = new Set<string>();
  let next = 0;
  const query = client.query.bind(client);
  client.query = (config: unknown, ...rest: unknown[]) => {
    const callback = rest[0];
    // knex's form only: a { text, values } config without a name, and a callback
    if (!isTextQuery(config) || config.name !== undefined || rest.length !== 1 || typeof callback !== 'function' || !PLANNED.test(config.text)) {
      return query(config, ...rest);
    }
    let name = names.get(config.text);
    if (name === undefined) {
      if (!seen.has(config.text) || names.size >= MAX_NAMED) {
        if (seen.size >= MAX_SEEN) seen.clear();
        seen.add(config.text);
        return query(config, callback);
      }
      seen.delete(config.text);
      name = `scoutkit_${next++}`;
      names.set(config.text, name);
    }
    const done = callback as Callback;
    return query({ ...config, name }, (err: unknown, result: unknown) => {
      if (err === null || err === undefined || !isStalePlan(err)) return done(err, result);
      names.delete(config.text);
      query(config, done);
    });
  };
}
