/**
 * Contracts: the code of created contracts by address (the current creation), the list of
 * creations (block number, address) and their count.
 */
import type { ContractCodeRecord } from '../../../lib/domain/records.ts';
import type { VersionedDataSource } from '../../../lib/ports.ts';
import type { State } from '../state.ts';
import type { MemoryReadContext } from './context.ts';

/** Every creation record of the consensus blocks. */
function allContracts(s: State): ContractCodeRecord[] {
  const out: ContractCodeRecord[] = [];
  for (const { stored } of s.blocks.values()) if (stored.block.consensus) out.push(...(stored.bundle.contractCodes ?? []));
  return out;
}

export function contractQueries({ s }: MemoryReadContext): Pick<VersionedDataSource, 'getContracts' | 'listContracts' | 'countContracts'> {
  return {
    async getContracts(addresses) {
      const out: ContractCodeRecord[] = [];
      for (const a of new Set(addresses)) {
        const c = s.contracts.current(a);
        if (c !== undefined) out.push(c);
      }
      return out;
    },

    async listContracts(filter, page) {
      const needle = filter.addressContains?.toLowerCase();
      const rows = allContracts(s).filter((c) => needle === undefined || c.address.includes(needle));
      // desc: (blockNumber DESC, address DESC); asc: the exact reverse
      const desc = (x: ContractCodeRecord, y: ContractCodeRecord): number =>
        y.blockNumber - x.blockNumber || (x.address < y.address ? 1 : x.address > y.address ? -1 : 0);
      const cmp = page.order === 'desc' ? desc : (x: ContractCodeRecord, y: ContractCodeRecord) => desc(y, x);
      rows.sort(cmp);
      const after = page.after;
      const past = after === null ? rows : rows.filter((r) => cmp(r, { ...r, blockNumber: after.blockNumber, address: after.address }) > 0);
      return past.slice(0, Math.max(0, page.limit));
    },

    async countContracts(filter) {
      const since = filter.createdSince;
      return allContracts(s).filter((c) => since === undefined || c.timestamp >= since).length;
    },
  };
}
