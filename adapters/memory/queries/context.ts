/** What every memory query reads: the state, and its sorted views of the current version. */
import type { State } from '../state.ts';
import type { Views } from '../views.ts';

export interface MemoryReadContext {
  readonly s: State;
  /** the views of the current state version (rebuilt lazily after a mutation) */
  views(): Views;
}
