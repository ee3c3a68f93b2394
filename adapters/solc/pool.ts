/**
 * A bounded pool of compile workers (worker.ts, messages.ts): at most `size` (≤ the cores) compiles at once,
 * at most `queue` waiting; each compile capped in time (the worker is terminated and replaced)
 * and in heap (resourceLimits; a worker running out dies alone and is replaced).
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CompileReply, CompileRequest, WorkerData } from './messages.ts';

export interface PoolOptions {
  /** workers, default 1, at most the cores */
  readonly size?: number;
  /** jobs waiting for a worker before `busy`, default 16 */
  readonly queue?: number;
  /** per compile (a solc-js build's first load included), default 120 s */
  readonly timeoutMs?: number;
  /** a worker's V8 heap, default 2048 MB (solc-js's wasm memory is not counted by V8) */
  readonly memoryMb?: number;
}

export type PoolResult =
  | { readonly kind: 'output'; readonly output: string }
  | { readonly kind: 'error'; readonly reason: 'compiler' | 'timeout' | 'out-of-memory' | 'busy' | 'closed'; readonly message: string };

interface Task {
  readonly request: Omit<CompileRequest, 'id' | 'timeoutMs'>;
  readonly timeoutMs: number;
  readonly resolve: (result: PoolResult) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  timer: NodeJS.Timeout | null;
}

const wrapper = createRequire(import.meta.url).resolve('solc/wrapper');

/**
 * The worker's module beside this one: worker.js when this is dist/'s pool.js; worker.ts when
 * this runs from the sources, loaded through tsx's API because Node 20 does not carry the
 * parent's `--import` loader into a worker thread.
 */
function workerEntry(): { readonly entry: string | URL; readonly eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { entry: new URL('./worker.js', import.meta.url), eval: false };
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const worker = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
  return { entry: `import(${tsx}).then((tsx) => { tsx.register(); return import(${worker}); });`, eval: true };
}

export class CompilePool {
  readonly size: number;
  private readonly maxQueue: number;
  private readonly timeoutMs: number;
  private readonly memoryMb: number;
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** compiles started so far */
  started = 0;

  constructor(options: PoolOptions = {}) {
    this.size = Math.max(1, Math.min(options.size ?? 1, availableParallelism()));
    this.maxQueue = options.queue ?? 16;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.memoryMb = options.memoryMb ?? 2048;
  }

  /** jobs running plus waiting */
  get load(): number {
    return this.slots.filter((s) => s.task !== null).length + this.waiting.length;
  }

  /** whether a compile asked now would be refused as busy (every worker running, the queue full) */
  get full(): boolean {
    return !this.slots.some((s) => s.task === null) && this.slots.length >= this.size && this.waiting.length >= this.maxQueue;
  }

  /** `timeoutMs` overrides the pool's cap for this compile */
  compile(request: Task['request'], options: { readonly timeoutMs?: number } = {}): Promise<PoolResult> {
    if (this.closed) return Promise.resolve({ kind: 'error', reason: 'closed', message: 'The verifier is shut down' });
    const idle = this.slots.find((s) => s.task === null);
    if (idle === undefined && this.slots.length >= this.size && this.waiting.length >= this.maxQueue) {
      return Promise.resolve({ kind: 'error', reason: 'busy', message: `The verification queue is full (${this.maxQueue} waiting): try again later` });
    }
    return new Promise((resolve) => {
      const task: Task = { request, timeoutMs: options.timeoutMs ?? this.timeoutMs, resolve };
      if (idle !== undefined) this.start(idle, task);
      else if (this.slots.length < this.size) this.start(this.spawn(), task);
      else this.waiting.push(task);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0)) task.resolve({ kind: 'error', reason: 'closed', message: 'The verifier is shut down' });
    await Promise.all(this.slots.splice(0).map((s) => this.retire(s, { kind: 'error', reason: 'closed', message: 'The verifier is shut down' })));
  }

  private spawn(): Slot {
    const { entry, eval: evaluated } = workerEntry();
    const workerData: WorkerData = { wrapper };
    const worker = new Worker(entry, { eval: evaluated, workerData, resourceLimits: { maxOldGenerationSizeMb: this.memoryMb } });
    worker.unref();
    const slot: Slot = { worker, task: null, timer: null };
    worker.on('message', (reply: CompileReply) => {
      const task = slot.task;
      if (task === null) return;
      this.finish(slot, 'output' in reply ? { kind: 'output', output: reply.output } : { kind: 'error', reason: 'compiler', message: reply.error });
    });
    worker.on('error', (e: Error & { code?: string }) => {
      const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      void this.replace(slot, { kind: 'error', reason: oom ? 'out-of-memory' : 'compiler', message: oom ? `The compiler ran out of memory (cap ${this.memoryMb} MB)` : `The compiler crashed: ${e.message}` });
    });
    worker.on('exit', () => void this.replace(slot, { kind: 'error', reason: 'compiler', message: 'The compiler exited' }));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    slot.task = task;
    this.started++;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      void this.replace(slot, { kind: 'error', reason: 'timeout', message: `The compiler ran longer than ${task.timeoutMs / 1000} s and was stopped` });
    }, task.timeoutMs);
    const request: CompileRequest = { ...task.request, id: this.nextId++, timeoutMs: task.timeoutMs };
    slot.worker.postMessage(request);
  }

  private finish(slot: Slot, result: PoolResult): void {
    const task = slot.task;
    if (slot.timer !== null) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
    slot.worker.unref();
    task?.resolve(result);
    const next = this.waiting.shift();
    if (next !== undefined) this.start(slot, next);
  }

  /** end a worker's task with `result`, stop the worker, and hand its queue to a fresh one */
  private async replace(slot: Slot, result: PoolResult): Promise<void> {
    const at = this.slots.indexOf(slot);
    if (at < 0) return; // already replaced
    this.slots.splice(at, 1);
    await this.retire(slot, result);
    if (this.closed) return;
    const next = this.waiting.shift();
    if (next !== undefined) this.start(this.spawn(), next);
  }

  private async retire(slot: Slot, result: PoolResult): Promise<void> {
    const task = slot.task;
    if (slot.timer !== null) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
    task?.resolve(result);
    slot.worker.removeAllListeners('exit');
    await slot.worker.terminate();
  }
}
