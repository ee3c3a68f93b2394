/**
 * Every verified ABI by selector (Blockscout's `contract_methods`): one index per contract
 * store, built from its verified contracts in the order they were verified (the first verified
 * candidate that decodes wins), and rebuilt when the store's data version changes. A page asks
 * for it once: no store round trip per row; a store another process writes is asked for its
 * version at most every POLL_MS, and a store with a feed drops the index at once when any
 * process sharing it saves a verified contract.
 */
import type { ContractStore } from '../contracts/store.ts';
import type { AbiIndex } from './abiIndex.ts';
import { indexAbi } from './abiIndex.ts';

const PAGE = 500;
const POLL_MS = 1_000;

interface Cached {
  readonly key: string;
  readonly index: Promise<AbiIndex>;
  readonly polledAt: number;
  readonly polled: string;
}

const cache = new WeakMap<ContractStore, Cached>();
/** the stores whose feed is followed: a verified contract saved drops the index */
const followed = new WeakSet<ContractStore>();

function follow(store: ContractStore): void {
  if (store.feed === undefined || followed.has(store)) return;
  followed.add(store);
  store.feed.subscribe((change) => {
    if (change.kind === 'verified') cache.delete(store);
  });
}

async function build(store: ContractStore): Promise<AbiIndex> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let afterId: number | null = null;
  for (;;) {
    const page: readonly { readonly id: number; readonly abi: readonly unknown[] }[] = await store.listVerified({}, { afterId, limit: PAGE, order: 'asc' });
    for (const c of page) {
      for (const item of c.abi) {
        const key = JSON.stringify(item);
        if (seen.has(key)) continue;
        seen.add(key);
        items.push(item);
      }
    }
    const last = page[page.length - 1];
    if (page.length < PAGE || last === undefined) break;
    afterId = last.id;
  }
  return indexAbi(items);
}

async function versionOf(store: ContractStore, previous: Cached | undefined, now: number): Promise<{ readonly polled: string; readonly polledAt: number }> {
  const signal = store.dataVersionSignal;
  if (signal !== undefined && !signal.shared) return { polled: '', polledAt: now };
  if (previous !== undefined && now - previous.polledAt < POLL_MS) return { polled: previous.polled, polledAt: previous.polledAt };
  return { polled: store.getDataVersion === undefined ? String(now) : await store.getDataVersion(), polledAt: now };
}

/** The index of every verified ABI of this store, current to its data version. */
export async function verifiedAbiIndex(store: ContractStore, now: number = Date.now()): Promise<AbiIndex> {
  follow(store);
  const previous = cache.get(store);
  const { polled, polledAt } = await versionOf(store, previous, now);
  const key = `${store.dataVersionSignal?.local() ?? ''}:${polled}`;
  if (previous !== undefined && previous.key === key) {
    if (previous.polledAt !== polledAt) cache.set(store, { ...previous, polledAt });
    return previous.index;
  }
  const index = build(store);
  cache.set(store, { key, index, polledAt, polled });
  // a failed build is not kept: the next page tries again
  index.catch(() => {
    if (cache.get(store)?.index === index) cache.delete(store);
  });
  return index;
}
