/**
 * Current token balances: a holder's (with their tokens), a token's holders, and a holder's NFT
 * collections with the ids it holds.
 */
import type { Address, NftTokenType } from '../../../lib/domain/records.ts';
import type {
  CurrentTokenBalance,
  NftCollectionFilter,
  NftCollectionRecord,
  Page,
  TokenBalanceCursor,
  TokenBalanceFilter,
  TokenHolding,
  VersionedDataSource,
} from '../../../lib/ports.ts';
import { balanceVs, collectionOrder, collectionVs, holderVs, tokenIdDesc } from '../compare.ts';
import { pageSize, takePage } from '../paging.ts';
import type { MemoryReadContext } from './context.ts';

export function tokenBalanceQueries({ views }: MemoryReadContext): Pick<VersionedDataSource, 'listTokenBalances' | 'listTokenHoldings' | 'listTokenHolders' | 'listNftCollections'> {
  const tokenBalances = (filter: TokenBalanceFilter, page: Page<TokenBalanceCursor>): readonly CurrentTokenBalance[] => {
    const types = filter.types === undefined ? undefined : new Set(filter.types);
    const c = page.after;
    return takePage(views().holderBalances(filter.holder), page.limit, {
      cursor: c === null ? null : balanceVs(c),
      backward: page.order === 'asc',
      keep: (b) => types === undefined || types.has(b.tokenType),
    });
  };
  return {
    async listTokenBalances(filter, page): Promise<readonly CurrentTokenBalance[]> {
      return tokenBalances(filter, page);
    },

    async listTokenHoldings(filter, page): Promise<readonly TokenHolding[]> {
      const v = views();
      return tokenBalances(filter, page).map((b) => ({ ...b, token: v.token(b.tokenAddress) }));
    },

    async listTokenHolders(filter, page): Promise<readonly CurrentTokenBalance[]> {
      const c = page.after;
      return takePage(views().tokenHolders(filter.tokenAddress, filter.tokenId), page.limit, {
        cursor: c === null ? null : holderVs(c),
        backward: page.order === 'asc',
      });
    },

    async listNftCollections(filter: NftCollectionFilter, page): Promise<readonly NftCollectionRecord[]> {
      const v = views();
      const types = new Set<NftTokenType>(filter.types);
      const shown = pageSize(filter.holdings);
      /** `${type}|${token}` → collection with its held ids (ERC-1155/404) */
      const groups = new Map<string, { tokenType: NftTokenType; tokenAddress: Address; amount: bigint; held: { tokenId: bigint; value: bigint }[] }>();
      for (const b of v.holderBalances(filter.holder)) {
        if (b.value <= 0n) continue;
        const t = b.tokenType;
        if (t === 'ERC-721') {
          if (b.tokenId !== null || !types.has(t)) continue;
          groups.set(`${t}|${b.tokenAddress}`, { tokenType: t, tokenAddress: b.tokenAddress, amount: b.value, held: [] });
        } else if (t === 'ERC-1155' || t === 'ERC-404') {
          if (b.tokenId === null || !types.has(t)) continue;
          const key = `${t}|${b.tokenAddress}`;
          let g = groups.get(key);
          if (g === undefined) groups.set(key, (g = { tokenType: t, tokenAddress: b.tokenAddress, amount: 0n, held: [] }));
          g.amount += 1n;
          g.held.push({ tokenId: b.tokenId, value: b.value });
        }
      }
      const c = page.after;
      // the groups in collectionOrder are the list's 'asc' order
      const chosen = takePage([...groups.values()].sort(collectionOrder), page.limit, {
        cursor: c === null ? null : collectionVs(c),
        backward: page.order === 'desc',
      });
      return chosen.map((g) => {
        const holdings =
          g.tokenType === 'ERC-721'
            ? v.ownedErc721(filter.holder, g.tokenAddress).slice(0, shown).map((tokenId) => ({ tokenId, value: 1n }))
            : g.held.sort((a, b) => tokenIdDesc(a.tokenId, b.tokenId)).slice(0, shown);
        return Object.freeze({
          tokenAddress: g.tokenAddress,
          tokenType: g.tokenType,
          amount: g.amount,
          holdings: Object.freeze(holdings.map((h) => Object.freeze(h))),
        });
      });
    },
  };
}
