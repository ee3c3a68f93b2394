/**
 * The DataSink over State: atomic, idempotent block writes, rollback, pending transactions.
 *
 * Every write runs in two phases: prepare (check and copy everything; may throw) and apply
 * (plain Map updates that cannot throw). A failed call therefore changes nothing.
 */
import type { Address, BlockBundle, Hash, Hex, TransactionRecord, UserOperationRecord } from '../../lib/domain/records.ts';
import type { BlockSink } from '../../lib/ports.ts';
import { frozenCopy, InvalidWriteError, prepareBundle, preparePending } from './prepare.ts';
import { validateBundle } from '../../lib/sink/validate.ts';
import type { State } from './state.ts';
import { pendingOrder } from './compare.ts';

export function createWriter(s: State): BlockSink & Required<Pick<BlockSink, 'pendingTransactions' | 'dropPendingTransactions' | 'blocksWithLogs' | 'writeUserOperations'>> {
  return {
    async writeBlocks(bundles: readonly BlockBundle[]): Promise<void> {
      // phase 1: prepare every bundle, and check that a hash keeps its number across the batch
      const prepared = bundles.map(prepareBundle);
      const numberOf = new Map<Hash, number>();
      for (const p of prepared) {
        const { hash, number } = p.block;
        const known = s.blocks.get(hash)?.stored.block.number ?? numberOf.get(hash);
        if (known !== undefined && known !== number) {
          throw new InvalidWriteError(`block ${hash} is stored at ${known}, written at ${number}`);
        }
        numberOf.set(hash, number);
      }
      // phase 2: apply in order
      for (const p of prepared) {
        const { hash, number, consensus } = p.block;
        if (s.blocks.has(hash)) continue; // already stored: writing it again changes nothing
        if (consensus) {
          // a new consensus block at an occupied height replaces the consensus block there
          for (const e of s.blocksAt(number)) if (e.stored.block.consensus) s.remove(e.stored.block.hash);
        }
        s.insert(p);
      }
    },

    async writePendingTransactions(transactions: readonly TransactionRecord[]): Promise<void> {
      const prepared = preparePending(transactions);
      for (const tx of prepared) {
        if (s.pending.has(tx.hash) || s.consensusBlockOf(tx.hash) !== undefined) continue;
        s.addPending(tx);
      }
    },

    async pendingTransactions(limit: number) {
      if (!Number.isSafeInteger(limit) || limit < 0) throw new TypeError(`pendingTransactions: bad limit ${String(limit)}`);
      return [...s.pending.values()]
        .sort(pendingOrder)
        .slice(0, limit)
        .map((t) => Object.freeze({ hash: t.hash, from: t.from, nonce: t.nonce }));
    },

    async dropPendingTransactions(hashes: readonly Hash[]): Promise<void> {
      for (const h of new Set(hashes)) s.dropPending(h);
    },

    async rollbackAbove(height: number): Promise<void> {
      if (typeof height !== 'number' || Number.isNaN(height)) throw new TypeError(`rollbackAbove: bad height ${String(height)}`);
      const doomed: Hash[] = [];
      for (const [number, hashes] of s.hashesAtHeight) if (number > height) doomed.push(...hashes);
      for (const hash of doomed) s.remove(hash);
    },

    async blocksWithLogs(addresses: readonly Address[], topic0: Hex) {
      const wanted = new Set(addresses);
      const out: { number: number; hash: Hash }[] = [];
      for (const e of s.blocks.values()) {
        const { block, bundle } = e.stored;
        if (block.consensus && bundle.logs.some((l) => wanted.has(l.address) && l.topics[0] === topic0)) out.push({ number: block.number, hash: block.hash });
      }
      return out.sort((a, b) => a.number - b.number);
    },

    async writeUserOperations(blockHash: Hash, operations: readonly UserOperationRecord[]) {
      const entry = s.blocks.get(blockHash);
      if (entry === undefined || !entry.stored.block.consensus) return false;
      const bundle = frozenCopy({ ...entry.stored.bundle, userOperations: operations });
      validateBundle(bundle);
      s.blocks.set(blockHash, { ...entry, stored: { ...entry.stored, bundle } });
      s.version++;
      return true;
    },

    async getIndexedHead() {
      const top = s.maxHeight();
      const block = top === undefined ? undefined : s.preferredAt(top)?.stored.block;
      return block === undefined ? null : { number: block.number, hash: block.hash };
    },
  };
}
