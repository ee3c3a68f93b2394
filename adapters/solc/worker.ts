/**
 * One compile worker (a worker thread of pool.ts): runs solc's standard JSON, with a solc-js
 * build loaded once per worker through the `solc` package's wrapper, or a native solc binary.
 * Answers { id, output } (solc's JSON text) or { id, error }. The worker's code is plain
 * CommonJS run with `eval: true`, so it runs the same from the sources (tsx) and from dist/.
 */

export interface CompileRequest {
  readonly id: number;
  readonly compiler: { readonly kind: 'soljson' | 'native'; readonly path: string };
  readonly input: string;
  /** for a native compiler: kill it after this long */
  readonly timeoutMs: number;
}
export type CompileReply = { readonly id: number; readonly output: string } | { readonly id: number; readonly error: string };

/** workerData: { wrapper: the resolved path of `solc/wrapper` } */
export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { execFileSync } = require('node:child_process');
const loaded = new Map();
function solcjs(path) {
  let compile = loaded.get(path);
  if (compile === undefined) {
    const solc = require(workerData.wrapper)(require(path));
    compile = (input) => solc.compile(input);
    loaded.set(path, compile);
  }
  return compile;
}
// a native compiler gets no NODE_OPTIONS (the host's loaders are not its business)
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_OPTIONS'));
function run(request) {
  if (request.compiler.kind === 'native') {
    return execFileSync(request.compiler.path, ['--standard-json'], {
      env, input: request.input, encoding: 'utf8', timeout: request.timeoutMs, maxBuffer: 512 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'],
    });
  }
  return solcjs(request.compiler.path)(request.input);
}
parentPort.on('message', (request) => {
  let reply;
  try {
    reply = { id: request.id, output: run(request) };
  } catch (e) {
    reply = { id: request.id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort.postMessage(reply);
});
`;
