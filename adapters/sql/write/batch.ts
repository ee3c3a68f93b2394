/**
 * What one write carries between its steps: the keys whose current values must be recomputed
 * (a removal or an out-of-order write) and the history rows it inserted (the append-only path
 * takes current values straight from them).
 */
import type { Hash } from '../../../lib/domain/records.ts';
import type { Binding } from '../sql.ts';
import type { WriteRow } from '../rows.ts';
import { CounterDeltas } from './counters.ts';

export type Key = readonly Binding[];

/** Keys whose current values must be recomputed after a write. */
export class Affected {
  readonly balances: Key[] = [];
  readonly tokens: Key[] = [];
  readonly addresses: Key[] = [];
  readonly instances: Key[] = [];
  readonly transferIds: Key[] = [];
  /** proxies whose changes a write inserted or removed (address_views: write/views.ts) */
  readonly proxies: Key[] = [];
  /** per-address counters and current coin balances (./counters.ts) */
  readonly counters = new CounterDeltas();
  /** pending transactions the write's consensus blocks mined (their pending rows deleted) */
  readonly minedPending: Hash[] = [];
}

/** The history rows one write inserted (in insertion = seq order). */
export interface Fresh {
  readonly tokens: readonly WriteRow[];
  readonly addresses: readonly WriteRow[];
  readonly balances: readonly WriteRow[];
  readonly instances: readonly WriteRow[];
  readonly transferIds: readonly WriteRow[];
}
