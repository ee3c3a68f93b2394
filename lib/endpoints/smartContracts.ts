/**
 * GET /smart-contracts (also with a trailing slash).
 *
 * With a contract store (ChainConfig.contracts), as Blockscout: verified contracts only (at the
 * address first verified; bytecode twins are not listed), newest verification first
 * (`smart_contract_id` DESC). `q` is a case-insensitive substring of the name or of the
 * lower-case address text; `filter` keeps one language. Cursor: `smart_contract_id`.
 *
 * Without one (nothing can be verified): every contract the indexer saw created, newest first
 * (block_number DESC, address DESC); `q` matches a substring of the lower-case address text;
 * `filter` (a language) yields none. Cursor: `block_number` + `hash` of the last item.
 *
 * `sort`/`order` (balance, transactions count) and their paging keys are accepted and not
 * applied (no balance or counter is kept per contract).
 */
import * as E from 'fp-ts/lib/Either.js';
import type { AddressVerification } from '../contracts/lookup.ts';
import type { ContractStore } from '../contracts/store.ts';
import type { Address } from '../domain/records.ts';
import { addressHash, anyString, enumOf, integer, integerOrNull } from '../params/codecs.ts';
import { echo, itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { ContractCursor, DataSource } from '../ports.ts';
import type { RenderOptions } from '../render/context.ts';
import { loadContext } from '../render/context.ts';
import { renderSmartContractItem } from '../render/contract.ts';
import type { SmartContractItemJson } from '../render/contract.ts';
import { renderVerifiedItem } from '../render/verified.ts';
import { SmartContractListItem } from '../schema/contract.ts';
import { page } from '../schema/page.ts';
import type { ListBody } from '../paging/page.ts';
import { defineEndpoint } from './endpoint.ts';

export const SMART_CONTRACT_LANGUAGES = ['solidity', 'vyper', 'yul', 'geas'] as const;

interface Query {
  readonly q?: string;
  readonly filter?: (typeof SMART_CONTRACT_LANGUAGES)[number];
  readonly smart_contract_id?: number;
}

async function verifiedPage(ds: DataSource, contracts: ContractStore, render: RenderOptions, query: Query, rawQuery: Readonly<Record<string, string>>, size: number): Promise<ListBody<SmartContractItemJson>> {
  // geas is Blockscout's language too, but nothing here verifies it
  if (query.filter === 'geas') return listBody([], null);
  const probe = await contracts.listVerified(
    { ...(query.filter !== undefined ? { language: query.filter } : {}), ...(query.q !== undefined ? { q: query.q } : {}) },
    { afterId: query.smart_contract_id ?? null, limit: size + 1, order: 'desc' },
  );
  const { rows, last } = splitPage(probe, size);
  const ctx = await loadContext(ds, { addresses: rows.map((c) => c.address) }, render);
  // a listed contract is its address's own, whether or not the indexer saw it created
  const verified = new Map<Address, AddressVerification>(ctx.verified ?? []);
  for (const c of rows) verified.set(c.address, { contract: c, own: true });
  const withOwn = { ...ctx, verified };
  return listBody(
    rows.map((c) => renderVerifiedItem(c, withOwn)),
    last === null ? null : { ...echo(rawQuery, ['q', 'filter', 'sort', 'order']), smart_contract_id: last.id, items_count: size },
  );
}

export const smartContracts = defineEndpoint({
  route: '/smart-contracts/',
  summary: 'Verified contracts, newest verification first (without a contract store: contracts the indexer saw created)',
  path: {},
  query: {
    q: anyString,
    filter: enumOf(SMART_CONTRACT_LANGUAGES),
    sort: enumOf(['balance', 'transactions_count']),
    order: enumOf(['asc', 'desc']),
    smart_contract_id: integer(),
    coin_balance: integerOrNull,
    transactions_count: integerOrNull,
    block_number: integer({ min: 0 }),
    hash: addressHash,
    items_count: itemsCount,
  },
  response: page(SmartContractListItem),
  handler:
    ({ ds, render, chain }) =>
    ({ query, rawQuery }) =>
    async () => {
      const size = pageSize(query);
      if (chain.contracts !== undefined) return E.right(await verifiedPage(ds, chain.contracts, render, query, rawQuery, size));
      // a language filter keeps verified contracts only: none here
      if (query.filter !== undefined) return E.right(listBody([], null));
      const needle = (query.q ?? '').trim().toLowerCase();
      const after: ContractCursor | null =
        query.block_number !== undefined && query.hash !== undefined ? { blockNumber: query.block_number, address: query.hash } : null;
      const probe = await ds.listContracts(needle === '' ? {} : { addressContains: needle }, { after, limit: size + 1, order: 'desc' });
      const { rows, last } = splitPage(probe, size);
      const ctx = await loadContext(ds, { addresses: rows.map((c) => c.address) }, render);
      return E.right(
        listBody(
          rows.map((c) => renderSmartContractItem(c, ctx)),
          last === null
            ? null
            : { ...echo(rawQuery, ['q', 'sort', 'order']), block_number: last.blockNumber, hash: last.address, items_count: size },
        ),
      );
    },
});
