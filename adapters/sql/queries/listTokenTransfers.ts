/** listTokenTransfers: the seek led by the most selective filter (id, address, token, method ids, types); the others are row conditions. */
import type { Knex } from 'knex';
import type { TokenTransferRecord } from '../../../lib/domain/records.ts';
import type { Page, TokenTransferCursor, TokenTransferFilter } from '../../../lib/ports.ts';
import { asRows, toTransfer } from '../rows.ts';
import type { SqlContext } from './context.ts';
import { cmpNum, inOrderOf, mergePages, orderBy, pageSize, past, seekPages, sideColumns, touching, within } from './seek.ts';

export async function listTokenTransfers(c: SqlContext, filter: TokenTransferFilter, page: Page<TokenTransferCursor>): Promise<readonly TokenTransferRecord[]> {
  const { knex, d } = c;
  const n = pageSize(page.limit);
  if (n === 0) return [];
  const { tokenAddress, tokenId, transactionHash, address, direction, blocks } = filter;
  const types = filter.types === undefined ? undefined : [...new Set(filter.types)];
  if (types !== undefined && types.length === 0) return [];
  const methods = filter.methodIds === undefined ? undefined : [...new Set(filter.methodIds)];
  if (methods !== undefined && methods.length === 0) return [];
  const at = page.after;
  const inclusive = at?.inclusive === true;
  /** one seek per OR branch, all run in one statement (seekPages), merged into the page */
  const merge = async (branches: readonly Knex.QueryBuilder[]) => {
    const pages = (await seekPages(knex, branches.map((q) => q.orderBy(listOrder('tt')).limit(n)))).map((rows) => rows.map(toTransfer));
    return mergePages(pages, (t) => `${t.blockHash}|${t.logIndex}`, inOrderOf(transferCmp, page.order), n);
  };
  /** the filters that are not the seek's own equality prefix */
  const narrow = (q: Knex.QueryBuilder, alias: string, skip: { token?: boolean; id?: boolean; types?: boolean; methods?: boolean; address?: boolean }) => {
    if (tokenAddress !== undefined && skip.token !== true) q = q.andWhere(`${alias}.token_address`, tokenAddress);
    if (types !== undefined && skip.types !== true) q = q.whereIn(`${alias}.token_type`, types);
    if (methods !== undefined && skip.methods !== true) q = q.whereIn(`${alias}.method_id`, methods);
    if (tokenId !== undefined && skip.id !== true) {
      q = q.whereExists(
        knex('token_transfer_ids as x')
          .select(knex.raw('1'))
          .whereRaw(`x.token_address = ${alias}.token_address`)
          .andWhere('x.token_id', d.probe(tokenId))
          .whereRaw(`x.block_number = ${alias}.block_number AND x.log_index = ${alias}.log_index`),
      );
    }
    if (skip.address !== true) q = touching(q, address, direction, `${alias}.from_address`, [`${alias}.to_address`]);
    return within(q, `${alias}.block_number`, blocks);
  };
  const listOrder = (alias: string) => orderBy([[`${alias}.block_number`, 'desc'], [`${alias}.log_index`, 'desc']], page.order);
  if (transactionHash !== undefined) {
    let q = narrow(knex('token_transfers as tt').select('tt.*').where('tt.transaction_hash', transactionHash), 'tt', {});
    if (at !== null) q = past(q, ['tt.log_index'], [at.logIndex], page.order, inclusive);
    return asRows(await q.orderBy(orderBy([['tt.log_index', 'desc']], page.order)).limit(n)).map(toTransfer);
  }
  const cursor = (q: Knex.QueryBuilder, alias: string) =>
    at === null ? q : past(q, [`${alias}.block_number`, `${alias}.log_index`], [at.blockNumber, at.logIndex], page.order, inclusive);
  if (tokenAddress !== undefined && tokenId !== undefined) {
    let q = knex('token_transfer_ids as i')
      .join('token_transfers as tt', (j) => j.on('tt.block_hash', 'i.block_hash').andOn('tt.log_index', 'i.log_index'))
      .select('tt.*')
      .where({ 'i.token_address': tokenAddress, 'i.token_id': d.probe(tokenId) });
    q = within(narrow(cursor(q, 'i'), 'tt', { token: true, id: true }), 'i.block_number', blocks);
    return asRows(await q.orderBy(listOrder('i')).limit(n)).map(toTransfer);
  }
  if (address !== undefined) {
    return merge(
      sideColumns(direction, 'from_address', ['to_address']).map((column) =>
        narrow(cursor(knex('token_transfers as tt').select('tt.*').where(`tt.${column}`, address), 'tt'), 'tt', { address: true }),
      ),
    );
  }
  if (tokenAddress !== undefined) {
    const q = narrow(cursor(knex('token_transfers as tt').select('tt.*').where('tt.token_address', tokenAddress), 'tt'), 'tt', { token: true });
    return asRows(await q.orderBy(listOrder('tt')).limit(n)).map(toTransfer);
  }
  if (methods !== undefined) {
    // one seek per method id (index transfers_method); types and blocks narrow each
    return merge(methods.map((m) => narrow(cursor(knex('token_transfers as tt').select('tt.*').where('tt.method_id', m), 'tt'), 'tt', { methods: true })));
  }
  if (types !== undefined) {
    return merge(types.map((t) => narrow(cursor(knex('token_transfers as tt').select('tt.*').where('tt.token_type', t), 'tt'), 'tt', { types: true })));
  }
  const q = narrow(cursor(knex('token_transfers as tt').select('tt.*'), 'tt'), 'tt', {});
  return asRows(await q.orderBy(listOrder('tt')).limit(n)).map(toTransfer);
}

const transferCmp = (a: TokenTransferRecord, b: TokenTransferRecord) =>
  cmpNum(b.blockNumber, a.blockNumber) || cmpNum(b.logIndex, a.logIndex);
