/**
 * One compile worker (a worker thread of pool.ts, started from this module's file: worker.js in
 * dist/, worker.ts from the sources): runs solc's standard JSON, with a solc-js build loaded once
 * per worker through the `solc` package's wrapper, or a native solc binary.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { CompileReply, CompileRequest, WorkerData } from './messages.ts';

type Compile = (input: string) => string;
interface SolcWrapper {
  compile(input: string): string;
}

const require = createRequire(import.meta.url);
const { wrapper } = workerData as WorkerData;
const loaded = new Map<string, Compile>();

function solcjs(path: string): Compile {
  let compile = loaded.get(path);
  if (compile === undefined) {
    const solc = (require(wrapper) as (soljson: unknown) => SolcWrapper)(require(path));
    compile = (input) => solc.compile(input);
    loaded.set(path, compile);
  }
  return compile;
}

// a native compiler gets no NODE_OPTIONS (the host's loaders are not its business)
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_OPTIONS'));

function run(request: CompileRequest): string {
  if (request.compiler.kind === 'native') {
    return execFileSync(request.compiler.path, ['--standard-json'], {
      env,
      input: request.input,
      encoding: 'utf8',
      timeout: request.timeoutMs,
      maxBuffer: 512 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  }
  return solcjs(request.compiler.path)(request.input);
}

function answer(request: CompileRequest): CompileReply {
  try {
    return { id: request.id, output: run(request) };
  } catch (e) {
    return { id: request.id, error: e instanceof Error ? e.message : String(e) };
  }
}

if (parentPort === null) throw new Error('adapters/solc/worker runs as a worker thread of the compile pool');
const port = parentPort;
port.on('message', (request: CompileRequest) => port.postMessage(answer(request)));
