/**
 * The store could not be reached now (a database restarting, a dropped connection, a file
 * locked by another writer past its busy timeout): nothing is wrong with the data or the call,
 * ask again later. Adapters throw it for these failures only — a constraint violation or a
 * schema error is a bug and stays what it is. The indexer waits it out (lib/indexer/outage.ts);
 * a DataSink call that threw it applied whole or not at all (a commit whose answer was lost may
 * have applied), and its writes are idempotent, so the whole call is simply made again.
 */
export class StoreUnavailableError extends Error {
  override readonly name: string = 'StoreUnavailableError';
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
  }
}
