/**
 * Zero-step verification as a chain is indexed: a small watcher on the store's change feed.
 * At start it checks every contract already in the store; then, for each change that added
 * blocks, the contracts created in those blocks (listContracts down to the change's lowest
 * block: creations by factories included, not only by transactions), in creation order. A contract
 * whose code hash is already verified in full, or already found matching no artifact, is
 * skipped; the others go to the matcher and a match is saved. One pass runs at a time; passes
 * asked for meanwhile merge into one.
 */
import type { Address, ContractCodeRecord, Hash } from '../domain/records.ts';
import type { ChangeFeed } from '../feed/change.ts';
import type { DataSource } from '../ports.ts';
import { codeHashOf } from './codeHash.ts';
import type { ContractStore } from './store.ts';
import { verifyRecord } from './verifyContract.ts';
import type { CodeMatcher, VerifyContractResult } from './verifyContract.ts';

export interface ContractWatcherOptions {
  readonly source: DataSource;
  readonly contracts: ContractStore;
  /** the store's change feed; without it only the contracts already stored are checked */
  readonly feed?: ChangeFeed;
  /** a build's artifacts (no compile), as `loadArtifacts` (scoutkit/host) gives them */
  readonly matcher: CodeMatcher;
  /** every code checked (verified, or failed: not matching), once per code hash */
  readonly onResult?: (result: VerifyContractResult) => void;
  /** a pass that failed (the store unreachable…): the next change tries again */
  readonly onError?: (error: unknown) => void;
  /** contracts per listContracts page, default 200 */
  readonly pageSize?: number;
}

export interface ContractWatcher {
  /** resolves once every pass asked for so far is done */
  idle(): Promise<void>;
  /** stop listening (a running pass finishes) */
  stop(): Promise<void>;
  /** code hashes checked, and verified, so far */
  readonly stats: { readonly checked: number; readonly verified: number };
}

/** code hashes checked and matching nothing (or only partially): the artifacts do not change during a run */
const MAX_SETTLED = 100_000;

export function watchContracts(options: ContractWatcherOptions): ContractWatcher {
  const { source, contracts, matcher } = options;
  const limit = options.pageSize ?? 200;
  const stats = { checked: 0, verified: 0 };
  let stopped = false;
  /** the lowest block the next pass must reach down to (-1: every contract); null: none asked */
  let wanted: number | null = -1;
  let running: Promise<void> = Promise.resolve();
  let scheduled = false;
  const settled = new Set<Hash>();

  async function check(records: readonly ContractCodeRecord[]): Promise<void> {
    const withCode = records.flatMap((r) => {
      const hash = codeHashOf(r.deployedBytecode);
      return hash === null ? [] : [{ r, hash }];
    });
    if (withCode.length === 0) return;
    const stored = await contracts.getVerified([...new Set(withCode.map((x) => x.hash))]);
    const full = new Set<Hash>(stored.filter((c) => c.match === 'full').map((c) => c.codeHash));
    for (const { r, hash } of withCode) {
      if (stopped) return;
      if (full.has(hash) || settled.has(hash)) continue;
      const result = await verifyRecord(contracts, r, matcher);
      stats.checked++;
      if (result.status === 'verified') {
        stats.verified++;
        if (result.contract.match === 'full') full.add(hash);
        else settled.add(hash); // partial: the artifacts hold nothing better
      } else {
        if (settled.size >= MAX_SETTLED) settled.clear();
        settled.add(hash);
      }
      options.onResult?.(result);
    }
  }

  /** every contract (down < 0), or those created at or above block `down`: each in creation order (the first address of a code is its own, later ones its twins) */
  async function pass(down: number): Promise<void> {
    let after: { readonly blockNumber: number; readonly address: Address } | null = null;
    if (down < 0) {
      for (;;) {
        const page = await source.listContracts({}, { after, limit, order: 'asc' });
        await check(page);
        const last = page[page.length - 1];
        if (stopped || last === undefined || page.length < limit) return;
        after = { blockNumber: last.blockNumber, address: last.address };
      }
    }
    // the newest first, down to the change's lowest block (a change adds a batch: a few blocks)
    const found: ContractCodeRecord[] = [];
    for (;;) {
      const page = await source.listContracts({}, { after, limit, order: 'desc' });
      const inRange = page.filter((r) => r.blockNumber >= down);
      found.push(...inRange);
      const last = page[page.length - 1];
      if (stopped || last === undefined || page.length < limit || inRange.length < page.length) break;
      after = { blockNumber: last.blockNumber, address: last.address };
    }
    found.reverse();
    for (let i = 0; i < found.length && !stopped; i += limit) await check(found.slice(i, i + limit));
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    running = running.then(async () => {
      scheduled = false;
      const down = wanted;
      wanted = null;
      if (down === null || stopped) return;
      try {
        await pass(down);
      } catch (e) {
        options.onError?.(e);
      }
    });
  }

  const unsubscribe =
    options.feed?.subscribe((change) => {
      if (change.blocks === null) return;
      wanted = wanted === null ? change.blocks.from : Math.min(wanted, change.blocks.from);
      schedule();
    }) ?? (() => {});
  schedule();

  return {
    stats,
    async idle() {
      // a pass may schedule nothing more, but a change delivered during it schedules another
      for (let seen = running; ; seen = running) {
        await seen;
        if (seen === running && !scheduled) return;
      }
    },
    async stop() {
      stopped = true;
      unsubscribe();
      await running;
    },
  };
}
