/**
 * Withdrawals in the memory store: the list (index DESC, blockNumber DESC) over consensus
 * blocks, all and per recipient, rebuilt once per state version; and the running totals kept
 * by State.insert/remove (never a scan per request).
 */
import type { Address, WithdrawalRecord } from '../../lib/domain/records.ts';
import type { Page, WithdrawalCursor, WithdrawalFilter } from '../../lib/ports.ts';
import type { Cmp } from './compare.ts';
import { asc, inRange } from './compare.ts';
import { takePage } from './paging.ts';
import type { State } from './state.ts';

/** The port's desc order: index DESC, then blockNumber DESC (only for repeated indexes). */
export const withdrawalOrder: Cmp<WithdrawalRecord> = (a, b) => asc(b.index, a.index) || asc(b.blockNumber, a.blockNumber);
/** A row against the cursor: past it when its index is lower (rows of the cursor's index are at it). */
export const withdrawalVs = (c: WithdrawalCursor) => (w: WithdrawalRecord) => asc(c.index, w.index);

interface WithdrawalIndex {
  readonly version: number;
  readonly all: readonly WithdrawalRecord[];
  readonly byAddress: ReadonlyMap<Address, readonly WithdrawalRecord[]>;
}

const indexes = new WeakMap<State, WithdrawalIndex>();

function indexOf(s: State): WithdrawalIndex {
  const known = indexes.get(s);
  if (known !== undefined && known.version === s.version) return known;
  const all: WithdrawalRecord[] = [];
  for (const e of s.blocks.values()) if (e.stored.block.consensus) all.push(...(e.stored.bundle.withdrawals ?? []));
  all.sort(withdrawalOrder);
  const byAddress = new Map<Address, WithdrawalRecord[]>();
  for (const w of all) {
    const list = byAddress.get(w.address);
    if (list === undefined) byAddress.set(w.address, [w]);
    else list.push(w);
  }
  const built = { version: s.version, all, byAddress };
  indexes.set(s, built);
  return built;
}

const NO_ROWS: readonly never[] = Object.freeze([]);

export function listWithdrawals(s: State, filter: WithdrawalFilter, page: Page<WithdrawalCursor>): WithdrawalRecord[] {
  const idx = indexOf(s);
  const rows = filter.address === undefined ? idx.all : (idx.byAddress.get(filter.address) ?? NO_ROWS);
  const { blocks } = filter;
  return takePage(rows, page.limit, {
    cursor: page.after === null ? null : withdrawalVs(page.after),
    backward: page.order === 'asc',
    keep: blocks === undefined ? undefined : (w) => inRange(blocks, w.blockNumber),
  });
}
