/**
 * GET /smart-contracts (also with a trailing slash) — every contract the indexer saw created, newest first (block_number DESC,
 * address DESC; Blockscout lists verified contracts by verification id). `q` matches a substring
 * of the lower-case address text (unverified contracts have no name); `filter` (a language) keeps
 * only verified contracts, so it yields none; `sort`/`order` (balance, transactions count) and
 * their paging keys are accepted and not applied (no balance or counter is kept per contract).
 * Cursor: `block_number` + `hash` of the last item.
 */
import * as E from 'fp-ts/lib/Either.js';
import { addressHash, anyString, enumOf, integer, integerOrNull } from '../params/codecs.ts';
import { echo, itemsCount, listBody, pageSize, splitPage } from '../paging/page.ts';
import type { ContractCursor } from '../ports.ts';
import { loadContext } from '../render/context.ts';
import { renderSmartContractItem } from '../render/contract.ts';
import { SmartContractListItem } from '../schema/contract.ts';
import { page } from '../schema/page.ts';
import { defineEndpoint } from './endpoint.ts';

export const SMART_CONTRACT_LANGUAGES = ['solidity', 'vyper', 'yul', 'geas'] as const;

export const smartContracts = defineEndpoint({
  route: '/smart-contracts/',
  summary: 'Contracts the indexer saw created, newest first',
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
    ({ ds, render }) =>
    ({ query, rawQuery }) =>
    async () => {
      const size = pageSize(query);
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
