/**
 * What the compile pool (pool.ts) and its worker threads (worker.ts) say to each other: a
 * request to run solc's standard JSON, answered { id, output } (solc's JSON text) or { id, error }.
 */

export interface CompileRequest {
  readonly id: number;
  readonly compiler: { readonly kind: 'soljson' | 'native'; readonly path: string };
  readonly input: string;
  /** for a native compiler: kill it after this long */
  readonly timeoutMs: number;
}

export type CompileReply = { readonly id: number; readonly output: string } | { readonly id: number; readonly error: string };

/** a worker's workerData */
export interface WorkerData {
  /** the resolved path of `solc/wrapper` */
  readonly wrapper: string;
}
