/**
 * Token instances: by (token, id), a token's instances, and those a holder holds (ERC-721 by
 * owner, others by a positive balance).
 */
import type { TokenInstanceRecord } from '../../../lib/domain/records.ts';
import type { HeldTokenInstance, TokenInstanceKey, VersionedDataSource } from '../../../lib/ports.ts';
import { instanceVs, tokenIdDesc } from '../compare.ts';
import { takePage } from '../paging.ts';
import type { MemoryReadContext } from './context.ts';

function held(instance: TokenInstanceRecord | null, value: bigint | null): HeldTokenInstance {
  if (instance === null) throw new Error('memory store: instance index out of sync');
  return Object.freeze({ instance, value });
}

export function tokenInstanceQueries({ views }: MemoryReadContext): Pick<VersionedDataSource, 'getTokenInstances' | 'listTokenInstances'> {
  return {
    async getTokenInstances(keys: readonly TokenInstanceKey[]): Promise<readonly TokenInstanceRecord[]> {
      const v = views();
      const seen = new Set<string>();
      const out: TokenInstanceRecord[] = [];
      for (const k of keys) {
        const id = `${k.tokenAddress}|${k.tokenId.toString()}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const i = v.instance(k.tokenAddress, k.tokenId);
        if (i !== null) out.push(i);
      }
      return out;
    },

    async listTokenInstances(filter, page): Promise<readonly HeldTokenInstance[]> {
      const v = views();
      const { tokenAddress, holder } = filter;
      const c = page.after;
      const walk = { cursor: c === null ? null : instanceVs(c), backward: page.order === 'asc' };
      if (holder === undefined) {
        return takePage(v.instanceIds(tokenAddress), page.limit, walk).map((id) => held(v.instance(tokenAddress, id), null));
      }
      // candidate ids: ERC-721 ids the holder owns by transfers, and ids it has a balance of
      const candidates = new Set<bigint>(v.ownedErc721(holder, tokenAddress));
      for (const b of v.holderBalances(holder)) {
        if (b.tokenAddress === tokenAddress && b.tokenId !== null && b.value > 0n) candidates.add(b.tokenId);
      }
      const heldBy = (id: bigint): HeldTokenInstance | null => {
        const instance = v.instance(tokenAddress, id);
        if (instance === null) return null;
        if (instance.tokenType === 'ERC-721') return instance.owner === holder ? held(instance, 1n) : null;
        const value = v.balanceOf(holder, tokenAddress, id);
        return value > 0n ? held(instance, value) : null;
      };
      const out: HeldTokenInstance[] = [];
      const keep = (id: bigint): boolean => {
        const h = heldBy(id);
        if (h !== null) out.push(h);
        return h !== null;
      };
      takePage([...candidates].sort(tokenIdDesc), page.limit, { ...walk, keep });
      return out;
    },
  };
}
