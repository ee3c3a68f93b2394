/**
 * User operations in the memory store: the operations of consensus blocks in the port's order
 * (blockNumber DESC, hash DESC), by hash and by each filter's value, and the bundles grouped
 * from them (blockNumber DESC, transactionHash DESC, bundleIndex DESC) and each role's parties
 * with their counts (count DESC, address DESC) and the accounts with their creations (address
 * ASC; and by the factories their operations carry), rebuilt once per state version. They
 * leave with their block (State.remove), so a reorg takes them away.
 */
import type { UserOperationRecord } from '../../lib/domain/userOperations.ts';
import type { Address } from '../../lib/domain/records.ts';
import type {
  Page,
  UserOperationAccount,
  UserOperationAccountCursor,
  UserOperationAccountFilter,
  UserOperationCreation,
  UserOperationParty,
  UserOperationPartyCursor,
  UserOperationRole,
  UserOperationBundle,
  UserOperationBundleCursor,
  UserOperationBundleFilter,
  UserOperationCursor,
  UserOperationFilter,
} from '../../lib/ports.ts';
import type { Cmp } from './compare.ts';
import { asc, ascStr } from './compare.ts';
import { takePage } from './paging.ts';
import type { State } from './state.ts';

export const userOperationOrder: Cmp<UserOperationRecord> = (a, b) => asc(b.blockNumber, a.blockNumber) || ascStr(b.hash, a.hash);
const userOperationVs = (c: UserOperationCursor) => (o: UserOperationRecord) => asc(c.blockNumber, o.blockNumber) || ascStr(c.hash, o.hash);

interface Bundle extends UserOperationBundle {
  readonly entryPoints: ReadonlySet<string>;
}
const bundleOrder: Cmp<Bundle> = (a, b) => asc(b.blockNumber, a.blockNumber) || ascStr(b.transactionHash, a.transactionHash) || asc(b.bundleIndex, a.bundleIndex);
const bundleVs = (c: UserOperationBundleCursor) => (x: Bundle) =>
  asc(c.blockNumber, x.blockNumber) || ascStr(c.transactionHash, x.transactionHash) || asc(c.bundleIndex, x.bundleIndex);

/** the filter fields with an index of their own, most selective first */
const KEYED = ['transactionHash', 'sender', 'blockNumber', 'paymaster', 'factory', 'bundler', 'entryPoint'] as const;
type Keyed = (typeof KEYED)[number];

interface UserOperationIndex {
  readonly version: number;
  readonly all: readonly UserOperationRecord[];
  readonly byHash: ReadonlyMap<string, UserOperationRecord>;
  readonly by: ReadonlyMap<Keyed, ReadonlyMap<string, readonly UserOperationRecord[]>>;
  readonly bundles: readonly Bundle[];
  /** each role's parties in the list's order, and by address */
  readonly parties: ReadonlyMap<UserOperationRole, { readonly sorted: readonly UserOperationParty[]; readonly byAddress: ReadonlyMap<Address, UserOperationParty> }>;
  /** the accounts in address order, and those of each factory their operations carry */
  readonly accounts: readonly UserOperationAccount[];
  readonly accountsByFactory: ReadonlyMap<Address, readonly UserOperationAccount[]>;
}

const ROLES: readonly UserOperationRole[] = ['sender', 'bundler', 'paymaster', 'factory'];
const partyCount = (p: UserOperationParty): number => (p.role === 'bundler' ? p.totalBundles : p.totalOps);
const partyOrder: Cmp<UserOperationParty> = (a, b) => asc(partyCount(b), partyCount(a)) || ascStr(b.address, a.address);
const partyVs = (c: UserOperationPartyCursor) => (p: UserOperationParty) => asc(c.count, partyCount(p)) || ascStr(c.address, p.address);

function groupParties(all: readonly UserOperationRecord[]): UserOperationIndex['parties'] {
  const out = new Map<UserOperationRole, { sorted: UserOperationParty[]; byAddress: Map<Address, UserOperationParty> }>();
  for (const role of ROLES) {
    const counts = new Map<Address, { ops: number; bundles: Set<string> }>();
    for (const o of all) {
      const address = o[role];
      if (address === null) continue;
      const c = counts.get(address) ?? { ops: 0, bundles: new Set<string>() };
      c.ops++;
      if (role === 'bundler') c.bundles.add(`${o.transactionHash}#${o.bundleIndex}`);
      counts.set(address, c);
    }
    const parties = [...counts].map(([address, c]): UserOperationParty => ({ role, address, totalOps: c.ops, totalBundles: c.bundles.size }));
    out.set(role, { sorted: parties.sort(partyOrder), byAddress: new Map(parties.map((p) => [p.address, p])) });
  }
  return out;
}

const accountVs = (c: UserOperationAccountCursor) => (a: UserOperationAccount) => ascStr(a.address, c.address);

/** the senders in address order with their counts and creations; `all` is in the list's order (newest first) */
function groupAccounts(all: readonly UserOperationRecord[], senders: readonly UserOperationParty[]): Pick<UserOperationIndex, 'accounts' | 'accountsByFactory'> {
  const creations = new Map<Address, UserOperationCreation>();
  const factoriesOf = new Map<Address, Set<Address>>();
  for (let i = all.length - 1; i >= 0; i--) {
    const o = all[i];
    if (o === undefined || o.factory === null) continue;
    if (!creations.has(o.sender)) creations.set(o.sender, { factory: o.factory, transactionHash: o.transactionHash, hash: o.hash, timestamp: o.timestamp });
    const set = factoriesOf.get(o.sender) ?? new Set<Address>();
    set.add(o.factory);
    factoriesOf.set(o.sender, set);
  }
  const accounts = senders
    .map((p): UserOperationAccount => ({ address: p.address, totalOps: p.totalOps, creation: creations.get(p.address) ?? null }))
    .sort((a, b) => ascStr(a.address, b.address));
  const accountsByFactory = new Map<Address, UserOperationAccount[]>();
  for (const a of accounts) {
    for (const f of factoriesOf.get(a.address) ?? []) {
      const list = accountsByFactory.get(f);
      if (list === undefined) accountsByFactory.set(f, [a]);
      else list.push(a);
    }
  }
  return { accounts, accountsByFactory };
}

const indexes = new WeakMap<State, UserOperationIndex>();

function groupBundles(all: readonly UserOperationRecord[]): Bundle[] {
  const groups = new Map<string, { first: UserOperationRecord; count: number; entryPoints: Set<string> }>();
  for (const o of all) {
    const key = `${o.transactionHash}#${o.bundleIndex}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { first: o, count: 1, entryPoints: new Set([o.entryPoint]) });
    else {
      g.count++;
      g.entryPoints.add(o.entryPoint);
    }
  }
  return [...groups.values()]
    .map(({ first, count, entryPoints }) => ({
      transactionHash: first.transactionHash,
      bundleIndex: first.bundleIndex,
      blockNumber: first.blockNumber,
      timestamp: first.timestamp,
      bundler: first.bundler,
      totalOps: count,
      entryPoints,
    }))
    .sort(bundleOrder);
}

function indexOf(s: State): UserOperationIndex {
  const known = indexes.get(s);
  if (known !== undefined && known.version === s.version) return known;
  const all: UserOperationRecord[] = [];
  for (const e of s.blocks.values()) if (e.stored.block.consensus) all.push(...(e.stored.bundle.userOperations ?? []));
  all.sort(userOperationOrder);
  const by = new Map<Keyed, Map<string, UserOperationRecord[]>>(KEYED.map((k) => [k, new Map()]));
  for (const o of all) {
    for (const k of KEYED) {
      const v = o[k];
      if (v === null) continue;
      const m = by.get(k);
      const list = m?.get(String(v));
      if (list === undefined) m?.set(String(v), [o]);
      else list.push(o);
    }
  }
  const parties = groupParties(all);
  const built = {
    version: s.version,
    all,
    byHash: new Map(all.map((o) => [o.hash, o])),
    by,
    bundles: groupBundles(all),
    parties,
    ...groupAccounts(all, parties.get('sender')?.sorted ?? []),
  };
  indexes.set(s, built);
  return built;
}

const NO_ROWS: readonly never[] = Object.freeze([]);

export function getUserOperation(s: State, hash: string): UserOperationRecord | null {
  return indexOf(s).byHash.get(hash) ?? null;
}

function matches(filter: UserOperationFilter, o: UserOperationRecord): boolean {
  for (const k of KEYED) {
    const v = filter[k];
    if (v !== undefined && o[k] !== v) return false;
  }
  return filter.bundleIndex === undefined || o.bundleIndex === filter.bundleIndex;
}

export function listUserOperations(s: State, filter: UserOperationFilter, page: Page<UserOperationCursor>): UserOperationRecord[] {
  const idx = indexOf(s);
  const key = KEYED.find((k) => filter[k] !== undefined);
  const rows = key === undefined ? idx.all : (idx.by.get(key)?.get(String(filter[key])) ?? NO_ROWS);
  return takePage(rows, page.limit, {
    cursor: page.after === null ? null : userOperationVs(page.after),
    backward: page.order === 'asc',
    keep: (o) => matches(filter, o),
  });
}

export function listUserOperationBundles(s: State, filter: UserOperationBundleFilter, page: Page<UserOperationBundleCursor>): UserOperationBundle[] {
  const { bundler, entryPoint } = filter;
  return takePage(indexOf(s).bundles, page.limit, {
    cursor: page.after === null ? null : bundleVs(page.after),
    backward: page.order === 'asc',
    keep: (b) => (bundler === undefined || b.bundler === bundler) && (entryPoint === undefined || b.entryPoints.has(entryPoint)),
  }).map(({ entryPoints: _, ...b }) => b);
}

export function listUserOperationParties(s: State, role: UserOperationRole, page: Page<UserOperationPartyCursor>): UserOperationParty[] {
  return takePage(indexOf(s).parties.get(role)?.sorted ?? NO_ROWS, page.limit, {
    cursor: page.after === null ? null : partyVs(page.after),
    backward: page.order === 'asc',
  });
}

export function getUserOperationParties(s: State, role: UserOperationRole, addresses: readonly Address[]): UserOperationParty[] {
  const byAddress = indexOf(s).parties.get(role)?.byAddress;
  return [...new Set(addresses)].flatMap((a) => {
    const p = byAddress?.get(a);
    return p === undefined ? [] : [p];
  });
}

export function listUserOperationAccounts(s: State, filter: UserOperationAccountFilter, page: Page<UserOperationAccountCursor>): UserOperationAccount[] {
  const idx = indexOf(s);
  const rows = filter.factory === undefined ? idx.accounts : (idx.accountsByFactory.get(filter.factory) ?? NO_ROWS);
  return takePage(rows, page.limit, { cursor: page.after === null ? null : accountVs(page.after), backward: page.order === 'asc' });
}
