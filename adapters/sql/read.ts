/**
 * The DataSource over SQL. Every list is a keyset (seek) query: equality prefix + cursor
 * condition + ORDER BY matching an index of migrations/ (001_initial, 005_address_lists) +
 * LIMIT. 'asc' pages flip every ORDER BY column and the cursor comparison, so the same index
 * serves them scanned backwards; a block range bounds the scan. An OR filter (several kinds,
 * method ids, token types, address directions) is one seek per branch, each limited to the
 * page size, merged here — the first `limit` rows of a union are among the first `limit` rows
 * of each branch. The other filters are row conditions on the leading seek.
 */
import type { Knex } from 'knex';
import type {
  Address,
  AddressRecord,
  BlockRecord,
  Hash,
  InternalTransactionRecord,
  LogRecord,
  NftTokenType,
  TokenInstanceRecord,
  TokenRecord,
  TokenTransferRecord,
  TransactionRecord,
} from '../../lib/domain/records.ts';
import { NFT_TOKEN_TYPES, TRANSACTION_KINDS } from '../../lib/domain/records.ts';
import type {
  BlockFilter,
  BlockRange,
  BlockRef,
  Direction,
  CurrentTokenBalance,
  VersionedDataSource,
  HeldTokenInstance,
  InternalTransactionFilter,
  NftCollectionFilter,
  NftCollectionRecord,
  Order,
  Page,
  TokenInstanceKey,
  TokenTransferFilter,
  TransactionCursor,
  TransactionFilter,
} from '../../lib/ports.ts';
import type { Dialect } from './dialect.ts';
import type { Row } from './rows.ts';
import {
  asRows,
  big,
  hex,
  kindCode,
  num,
  str,
  toAddress,
  toBlock,
  toInternal,
  toLog,
  toStateChange,
  toToken,
  toTransaction,
  toTransfer,
  tokenType,
} from './rows.ts';
import type { Binding } from './sql.ts';
import { KEY_CHUNK, chunks, keyCondition } from './sql.ts';
import { ZERO_ADDRESS } from './write.ts';


type OrderBy = { column: string; order: 'asc' | 'desc' }[];

/** The columns an address filter seeks: the sending side, the receiving sides, or all. */
function sideColumns(direction: Direction | undefined, from: string, to: readonly string[]): string[] {
  return direction === 'from' ? [from] : direction === 'to' ? [...to] : [from, ...to];
}

function pageSize(limit: number): number {
  return Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : 0;
}

/** Merge the pages of several seeks over one order: dedupe by key, sort, cut. */
function mergePages<T>(pages: readonly (readonly T[])[], key: (x: T) => string, cmp: (a: T, b: T) => number, limit: number): T[] {
  if (pages.length === 1) return [...pages[0]];
  const seen = new Map<string, T>();
  for (const p of pages) for (const x of p) if (!seen.has(key(x))) seen.set(key(x), x);
  return [...seen.values()].sort(cmp).slice(0, limit);
}
const cmpNum = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);
const cmpBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function inOrder<T, K>(keys: readonly K[], found: ReadonlyMap<K, T>): T[] {
  const out: T[] = [];
  const seen = new Set<K>();
  for (const k of keys) {
    if (seen.has(k)) continue;
    seen.add(k);
    const v = found.get(k);
    if (v !== undefined) out.push(v);
  }
  return out;
}

export function createSqlReader(knex: Knex, d: Dialect): VersionedDataSource {
  const zero = d.key(0n);
  const noId = d.idKey(null);

  async function raw(sql: string, bindings: readonly Binding[]): Promise<Row[]> {
    return asRows(d.rawRows(await knex.raw(sql, [...bindings])));
  }

  // ---- tokens and instances ------------------------------------------------------------------

  async function tokensByAddress(addresses: readonly Address[]): Promise<Map<Address, TokenRecord>> {
    const found = new Map<Address, TokenRecord>();
    const parts = await Promise.all(
      chunks([...new Set(addresses)], KEY_CHUNK).map(async (part) =>
        asRows(
          await knex('tokens as t')
            .leftJoin('token_holder_counts as h', 'h.token_address', 't.address')
            .select('t.*', 'h.holders_count')
            .whereIn('t.address', part),
        ),
      ),
    );
    for (const rows of parts) for (const r of rows) found.set(hex(r, 'address'), toToken(r));
    return found;
  }

  /** Instances with their derived owner and uniqueness, keyed `${token}|${idKey}`. */
  async function instancesByKey(keys: readonly (readonly [Address, string])[]): Promise<Map<string, TokenInstanceRecord>> {
    const out = new Map<string, TokenInstanceRecord>();
    for (const part of chunks(keys, KEY_CHUNK)) {
      const cond = keyCondition(d, ['token_address', 'token_id'], part, 'i');
      const rows = await raw(
        `SELECT i.*, o."owner" AS erc721_owner FROM token_instances i ` +
          `LEFT JOIN nft_owners o ON o."token_address" = i."token_address" AND o."token_id" = i."token_id" WHERE ${cond.sql}`,
        cond.bindings,
      );
      // ERC-1155/404: the holders of each id with a positive balance (up to 2 tell "sole")
      const multi = rows.filter((r) => str(r, 'token_type') === 'ERC-1155' || str(r, 'token_type') === 'ERC-404');
      const sole = new Map<string, { holder: Address; value: bigint; count: number }>();
      if (multi.length > 0) {
        const c2 = keyCondition(d, ['token_address', 'token_id'], multi.map((r) => [str(r, 'token_address'), String(r.token_id)]));
        const holders = await raw(
          `SELECT * FROM (SELECT "token_address", "token_id", "holder", "value", ` +
            `ROW_NUMBER() OVER (PARTITION BY "token_address", "token_id" ORDER BY "holder") AS rn, ` +
            `COUNT(*) OVER (PARTITION BY "token_address", "token_id") AS n ` +
            `FROM current_token_balances WHERE ${c2.sql} AND "value" > ? AND "holder" <> ?) h WHERE rn = 1`,
          [...c2.bindings, zero, ZERO_ADDRESS],
        );
        for (const h of holders) {
          sole.set(`${str(h, 'token_address')}|${String(h.token_id)}`, {
            holder: hex(h, 'holder'),
            value: big(h, 'value'),
            count: num(h, 'n'),
          });
        }
      }
      for (const r of rows) {
        const token = hex(r, 'token_address');
        const key = `${token}|${String(r.token_id)}`;
        const type = tokenType(r, 'token_type');
        let owner: Address | null = null;
        let isUnique = false;
        if (type === 'ERC-721') {
          owner = r.erc721_owner === null || r.erc721_owner === undefined ? null : hex(r, 'erc721_owner');
          isUnique = true;
        } else if (type === 'ERC-1155' || type === 'ERC-404') {
          const s = sole.get(key);
          owner = s !== undefined && s.count === 1 && s.value === 1n ? s.holder : null;
          isUnique = owner !== null;
        }
        const meta = r.metadata === null || r.metadata === undefined ? null : metadataOf(str(r, 'metadata'));
        out.set(key, { tokenAddress: token, tokenId: big(r, 'token_id'), tokenType: type, metadata: meta, owner, isUnique });
      }
    }
    return out;
  }

  async function getTokenInstances(keys: readonly TokenInstanceKey[]): Promise<TokenInstanceRecord[]> {
    const encoded = keys.map((k) => [k.tokenAddress, d.probe(k.tokenId)] as const);
    const found = await instancesByKey(encoded);
    // the stored id key may print differently (pg numeric), so match by decoded id
    const byId = new Map<string, TokenInstanceRecord>();
    for (const i of found.values()) byId.set(`${i.tokenAddress}|${i.tokenId}`, i);
    return inOrder(keys.map((k) => `${k.tokenAddress}|${k.tokenId}`), byId);
  }

  // ---- paging helpers --------------------------------------------------------------------------

  /** ORDER BY of a list given in its 'desc' form; 'asc' flips every column. */
  const orderBy = (columns: readonly (readonly [string, 'asc' | 'desc'])[], order: Order): OrderBy =>
    columns.map(([column, dir]) => ({ column, order: order === 'desc' ? dir : dir === 'desc' ? 'asc' : 'desc' }));
  /** Rows past the cursor on columns that all sort the same way (a row-value seek). */
  const past = (q: Knex.QueryBuilder, columns: readonly string[], values: readonly Binding[], order: Order, inclusive = false) =>
    q.whereRaw(`(${columns.join(', ')}) ${order === 'desc' ? '<' : '>'}${inclusive ? '=' : ''} (${values.map(() => '?').join(', ')})`, [...values]);
  /** Rows whose block number lies in the range. */
  const within = (q: Knex.QueryBuilder, column: string, r: BlockRange | undefined) => {
    if (r?.from !== undefined) q = q.andWhere(column, '>=', r.from);
    if (r?.to !== undefined) q = q.andWhere(column, '<=', r.to);
    return q;
  };
  /** An address filter as a row condition (when another index leads the seek). */
  const touching = (q: Knex.QueryBuilder, address: Address | undefined, direction: Direction | undefined, from: string, to: readonly string[]) => {
    if (address === undefined) return q;
    const columns = sideColumns(direction, from, to);
    return q.where((w) => {
      for (const c of columns) w.orWhere(c, address);
    });
  };
  /** A desc comparator turned to the page's order. */
  const inOrderOf = <T>(cmp: (a: T, b: T) => number, order: Order) => (order === 'desc' ? cmp : (a: T, b: T) => cmp(b, a));

  // ---- transactions ----------------------------------------------------------------------------

  const minedCmp = (a: TransactionRecord, b: TransactionRecord) =>
    cmpNum(b.blockNumber ?? -1, a.blockNumber ?? -1) || cmpNum(b.index ?? -1, a.index ?? -1);
  const pendingCmp = (a: TransactionRecord, b: TransactionRecord) => cmpNum(b.insertedAt, a.insertedAt) || cmpStr(a.hash, b.hash);

  /** kinds (OR) as a row condition on the JSON text column; null when no kind can match */
  function kindsCondition(q: Knex.QueryBuilder, kinds: readonly string[] | undefined): Knex.QueryBuilder | null {
    if (kinds === undefined) return q;
    const known = [...new Set(kinds)].filter((k) => (TRANSACTION_KINDS as readonly string[]).includes(k));
    if (known.length === 0) return null;
    return q.where((w) => {
      for (const k of known) w.orWhere('kinds', 'like', `%"${k}"%`);
    });
  }

  async function listValidated(filter: TransactionFilter, after: { blockNumber: number; index: number } | null, n: number, order: Order) {
    const cursor = (q: Knex.QueryBuilder, bn: string, ix: string) => (after === null ? q : past(q, [bn, ix], [after.blockNumber, after.index], order));
    const methods = filter.methodIds === undefined ? undefined : [...new Set(filter.methodIds)];
    const pages: TransactionRecord[][] = [];
    const run = async (q: Knex.QueryBuilder, bn: string, ix: string) =>
      pages.push(asRows(await q.orderBy(orderBy([[bn, 'desc'], [ix, 'desc']], order)).limit(n)).map(toTransaction));
    if (filter.address !== undefined) {
      // one seek per side column of the address; kinds and method ids narrow each row
      for (const column of sideColumns(filter.direction, 'from_address', ['to_address', 'created_contract'])) {
        let q: Knex.QueryBuilder | null = knex('transactions').where({ consensus: true, [column]: filter.address });
        q = kindsCondition(q, filter.kinds);
        if (q === null) return [];
        if (methods !== undefined) q = q.whereIn('method_id', methods);
        await run(within(cursor(q, 'block_number', 'tx_index'), 'block_number', filter.blocks), 'block_number', 'tx_index');
      }
    } else if (filter.kinds !== undefined) {
      for (const kind of new Set(filter.kinds)) {
        if (!TRANSACTION_KINDS.includes(kind)) continue;
        let q = knex('transaction_kinds as k')
          .join('transactions as t', (j) => j.on('t.block_hash', 'k.block_hash').andOn('t.tx_index', 'k.tx_index'))
          .select('t.*')
          .where('k.kind', kindCode(kind));
        q = within(cursor(q, 'k.block_number', 'k.tx_index'), 'k.block_number', filter.blocks);
        if (methods !== undefined) q = q.whereIn('t.method_id', methods);
        await run(q, 'k.block_number', 'k.tx_index');
      }
    } else if (methods !== undefined) {
      for (const m of methods) {
        const q = cursor(knex('transactions').where({ consensus: true, method_id: m }), 'block_number', 'tx_index');
        await run(within(q, 'block_number', filter.blocks), 'block_number', 'tx_index');
      }
    } else {
      const q = cursor(knex('transactions').where('consensus', true), 'block_number', 'tx_index');
      await run(within(q, 'block_number', filter.blocks), 'block_number', 'tx_index');
    }
    if (pages.length === 0) return [];
    return mergePages(pages, (t) => `${t.blockHash}|${t.hash}`, inOrderOf(minedCmp, order), n);
  }

  async function listPending(filter: TransactionFilter, after: { insertedAt: number; hash: Hash } | null, n: number, order: Order) {
    // a pending transaction is in no block, so no block range holds one
    if (filter.blocks !== undefined) return [];
    const [older, hashSide] = order === 'desc' ? (['<', '>'] as const) : (['>', '<'] as const);
    const seek = async (column: string | null) => {
      let q: Knex.QueryBuilder | null = knex('pending_transactions');
      if (column !== null) q = q.where(column, filter.address);
      if (after !== null) {
        q = q.where((w) =>
          w.where('inserted_at', older, after.insertedAt).orWhere((w2) => w2.where('inserted_at', after.insertedAt).andWhere('hash', hashSide, after.hash)),
        );
      }
      q = kindsCondition(q, filter.kinds);
      if (q === null) return null;
      if (filter.methodIds !== undefined) {
        if (filter.methodIds.length === 0) return null;
        q = q.whereIn('method_id', [...filter.methodIds]);
      }
      return asRows(await q.orderBy(orderBy([['inserted_at', 'desc'], ['hash', 'asc']], order)).limit(n)).map(toTransaction);
    };
    const columns = filter.address === undefined ? [null] : sideColumns(filter.direction, 'from_address', ['to_address', 'created_contract']);
    const pages: TransactionRecord[][] = [];
    for (const c of columns) {
      const p = await seek(c);
      if (p === null) return [];
      pages.push(p);
    }
    return mergePages(pages, (t) => t.hash, inOrderOf(pendingCmp, order), n);
  }

  // ---- token transfers -------------------------------------------------------------------------

  const transferCmp = (a: TokenTransferRecord, b: TokenTransferRecord) =>
    cmpNum(b.blockNumber, a.blockNumber) || cmpNum(b.logIndex, a.logIndex);
  const internalCmp = (a: InternalTransactionRecord, b: InternalTransactionRecord) =>
    cmpNum(b.blockNumber, a.blockNumber) || cmpNum(b.transactionIndex, a.transactionIndex) || cmpNum(b.index, a.index);
  const logCmp = (a: LogRecord, b: LogRecord) => cmpNum(b.blockNumber, a.blockNumber) || cmpNum(b.index, a.index);

  return {
    async getBlock(ref: BlockRef): Promise<BlockRecord | null> {
      if ('hash' in ref) {
        const rows = asRows(await knex('blocks').where('hash', ref.hash));
        return rows.length === 0 ? null : toBlock(rows[0]);
      }
      // the consensus block at the height, else the latest-written other one
      const rows = asRows(
        await knex('blocks')
          .where('number', ref.number)
          .orderBy([
            { column: 'number', order: 'desc' },
            { column: 'consensus', order: 'desc' },
            { column: 'seq', order: 'desc' },
          ])
          .limit(1),
      );
      return rows.length === 0 ? null : toBlock(rows[0]);
    },

    async getTransaction(hash) {
      const mined = asRows(await knex('transactions').where({ hash, consensus: true }).limit(1));
      if (mined.length > 0) return toTransaction(mined[0]);
      const pending = asRows(await knex('pending_transactions').where({ hash }).limit(1));
      if (pending.length > 0) return toTransaction(pending[0]);
      // in non-consensus blocks only: the latest-written block's copy (a handful of rows)
      const others = asRows(await knex('transactions as t').join('blocks as b', 'b.hash', 't.block_hash').select('t.*', 'b.seq as block_seq').where('t.hash', hash));
      let best: Row | null = null;
      for (const r of others) if (best === null || num(r, 'block_seq') > num(best, 'block_seq')) best = r;
      return best === null ? null : toTransaction(best);
    },

    async getToken(address) {
      return (await tokensByAddress([address])).get(address) ?? null;
    },

    async getTokenInstance(key) {
      return (await getTokenInstances([key]))[0] ?? null;
    },

    async getDataVersion() {
      const row = asRows(await knex('data_version').select('version').where('id', 1))[0];
      return row === undefined ? '0' : String(row['version']);
    },

    async getHighestBlockNumber() {
      const r = asRows(await knex('blocks').where('consensus', true).max({ m: 'number' }))[0];
      return r === undefined || r.m === null ? null : num(r, 'm');
    },

    async getAddresses(hashes: readonly Address[]): Promise<readonly AddressRecord[]> {
      const found = new Map<Address, AddressRecord>();
      // chunks in parallel: a SQLite file has a pool of readers, Postgres a pool of connections
      const parts = await Promise.all(chunks([...new Set(hashes)], KEY_CHUNK).map(async (part) => asRows(await knex('addresses').whereIn('hash', part))));
      for (const rows of parts) for (const r of rows) found.set(hex(r, 'hash'), toAddress(r));
      return inOrder(hashes, found);
    },

    async getTokens(addresses) {
      return inOrder(addresses, await tokensByAddress(addresses));
    },

    getTokenInstances,

    async listBlocks(filter: BlockFilter, page) {
      const n = pageSize(page.limit);
      if (filter.kind === 'uncle' || n === 0) return [];
      let q = knex('blocks').where('consensus', filter.kind === 'block');
      if (filter.miner !== undefined) q = q.andWhere('miner', filter.miner);
      if (page.after !== null) q = past(q, ['"number"'], [page.after.number], page.order);
      q = within(q, 'number', filter.blocks);
      const rows = await q.orderBy(orderBy([['number', 'desc'], ['hash', 'asc']], page.order)).limit(n);
      return asRows(rows).map(toBlock);
    },

    async listTransactions(filter: TransactionFilter, page: Page<TransactionCursor>) {
      const c = page.after;
      const n = pageSize(page.limit);
      if (filter.status === 'pending') {
        if (c !== null && !('insertedAt' in c)) throw new TypeError('pending transactions take an {insertedAt, hash} cursor');
        return n === 0 ? [] : listPending(filter, c, n, page.order);
      }
      if (c !== null && !('blockNumber' in c)) throw new TypeError('validated transactions take a {blockNumber, index} cursor');
      return n === 0 ? [] : listValidated(filter, c, n, page.order);
    },

    async listInternalTransactions(filter: InternalTransactionFilter, page) {
      const n = pageSize(page.limit);
      if (n === 0) return [];
      const c = page.after;
      const { address, direction, transactionHash, blocks } = filter;
      if (transactionHash !== undefined) {
        let q = knex('internal_transactions').where({ transaction_hash: transactionHash, listed: true });
        if (c !== null) q = past(q, ['trace_index'], [c.index], page.order);
        q = within(touching(q, address, direction, 'from_address', ['to_address', 'created_contract']), 'block_number', blocks);
        return asRows(await q.orderBy(orderBy([['trace_index', 'desc']], page.order)).limit(n)).map(toInternal);
      }
      const seek = async (column: string | null) => {
        let q = knex('internal_transactions').where('listed', true);
        if (column !== null) q = q.andWhere(column, address);
        if (c !== null) q = past(q, ['"block_number"', '"transaction_index"', '"trace_index"'], [c.blockNumber, c.transactionIndex, c.index], page.order);
        q = within(q, 'block_number', blocks);
        const order = orderBy([['block_number', 'desc'], ['transaction_index', 'desc'], ['trace_index', 'desc']], page.order);
        return asRows(await q.orderBy(order).limit(n)).map(toInternal);
      };
      const columns = address === undefined ? [null] : sideColumns(direction, 'from_address', ['to_address', 'created_contract']);
      const pages = [];
      for (const col of columns) pages.push(await seek(col));
      return mergePages(pages, (r) => `${r.blockHash}|${r.transactionHash}|${r.index}`, inOrderOf(internalCmp, page.order), n);
    },

    async listTokenTransfers(filter: TokenTransferFilter, page) {
      const n = pageSize(page.limit);
      if (n === 0) return [];
      const { tokenAddress, tokenId, transactionHash, address, direction, blocks } = filter;
      const types = filter.types === undefined ? undefined : [...new Set(filter.types)];
      if (types !== undefined && types.length === 0) return [];
      const c = page.after;
      const inclusive = c?.inclusive === true;
      const merge = (pages: readonly TokenTransferRecord[][]) =>
        mergePages(pages, (t) => `${t.blockHash}|${t.logIndex}`, inOrderOf(transferCmp, page.order), n);
      /** the filters that are not the seek's own equality prefix */
      const narrow = (q: Knex.QueryBuilder, alias: string, skip: { token?: boolean; id?: boolean; types?: boolean; address?: boolean }) => {
        if (tokenAddress !== undefined && skip.token !== true) q = q.andWhere(`${alias}.token_address`, tokenAddress);
        if (types !== undefined && skip.types !== true) q = q.whereIn(`${alias}.token_type`, types);
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
        if (c !== null) q = past(q, ['tt.log_index'], [c.logIndex], page.order, inclusive);
        return asRows(await q.orderBy(orderBy([['tt.log_index', 'desc']], page.order)).limit(n)).map(toTransfer);
      }
      const cursor = (q: Knex.QueryBuilder, alias: string) =>
        c === null ? q : past(q, [`${alias}.block_number`, `${alias}.log_index`], [c.blockNumber, c.logIndex], page.order, inclusive);
      if (tokenAddress !== undefined && tokenId !== undefined) {
        let q = knex('token_transfer_ids as i')
          .join('token_transfers as tt', (j) => j.on('tt.block_hash', 'i.block_hash').andOn('tt.log_index', 'i.log_index'))
          .select('tt.*')
          .where({ 'i.token_address': tokenAddress, 'i.token_id': d.probe(tokenId) });
        q = within(narrow(cursor(q, 'i'), 'tt', { token: true, id: true }), 'i.block_number', blocks);
        return asRows(await q.orderBy(listOrder('i')).limit(n)).map(toTransfer);
      }
      if (address !== undefined) {
        const pages = [];
        for (const column of sideColumns(direction, 'from_address', ['to_address'])) {
          const q = narrow(cursor(knex('token_transfers as tt').select('tt.*').where(`tt.${column}`, address), 'tt'), 'tt', { address: true });
          pages.push(asRows(await q.orderBy(listOrder('tt')).limit(n)).map(toTransfer));
        }
        return merge(pages);
      }
      if (tokenAddress !== undefined) {
        const q = narrow(cursor(knex('token_transfers as tt').select('tt.*').where('tt.token_address', tokenAddress), 'tt'), 'tt', { token: true });
        return asRows(await q.orderBy(listOrder('tt')).limit(n)).map(toTransfer);
      }
      if (types !== undefined) {
        const pages = [];
        for (const t of types) {
          const q = narrow(cursor(knex('token_transfers as tt').select('tt.*').where('tt.token_type', t), 'tt'), 'tt', { types: true });
          pages.push(asRows(await q.orderBy(listOrder('tt')).limit(n)).map(toTransfer));
        }
        return merge(pages);
      }
      const q = narrow(cursor(knex('token_transfers as tt').select('tt.*'), 'tt'), 'tt', {});
      return asRows(await q.orderBy(listOrder('tt')).limit(n)).map(toTransfer);
    },

    async listLogs(filter, page) {
      const n = pageSize(page.limit);
      if (n === 0) return [];
      const { transactionHash, address, blocks } = filter;
      const c = page.after;
      if (transactionHash !== undefined) {
        let q = knex('logs').where('transaction_hash', transactionHash);
        if (address !== undefined) q = q.andWhere('address', address);
        if (c !== null) q = past(q, ['log_index'], [c.index], page.order);
        q = within(q, 'block_number', blocks);
        return asRows(await q.orderBy(orderBy([['log_index', 'desc']], page.order)).limit(n)).map(toLog);
      }
      let q = address === undefined ? knex('logs') : knex('logs').where('address', address);
      if (c !== null) q = past(q, ['block_number', 'log_index'], [c.blockNumber, c.index], page.order);
      q = within(q, 'block_number', blocks);
      return asRows(await q.orderBy(orderBy([['block_number', 'desc'], ['log_index', 'desc']], page.order)).limit(n)).map(toLog);
    },

    async listTokenBalances(filter, page): Promise<readonly CurrentTokenBalance[]> {
      const n = pageSize(page.limit);
      if (n === 0) return [];
      const c = page.after;
      const seek = async (type: string | null) => {
        let q = knex('current_token_balances').where('holder', filter.holder);
        if (type !== null) q = q.andWhere('token_type', type);
        if (c !== null) q = past(q, ['"value"', '"token_address"', '"token_id"'], [d.probe(c.value), c.tokenAddress, d.probe(c.tokenId)], page.order);
        const rows = asRows(await q.orderBy(orderBy([['value', 'desc'], ['token_address', 'desc'], ['token_id', 'desc']], page.order)).limit(n));
        return rows.map(
          (r): CurrentTokenBalance => ({
            holder: hex(r, 'holder'),
            tokenAddress: hex(r, 'token_address'),
            tokenType: tokenType(r, 'token_type'),
            tokenId: d.fromIdKey(r.token_id),
            value: big(r, 'value'),
          }),
        );
      };
      const types = filter.types === undefined ? [null] : [...new Set(filter.types)];
      const pages = [];
      for (const t of types) pages.push(await seek(t));
      if (pages.length === 0) return [];
      const balanceCmp = (a: CurrentTokenBalance, b: CurrentTokenBalance) =>
        cmpBig(b.value, a.value) ||
        cmpStr(b.tokenAddress, a.tokenAddress) ||
        (a.tokenId === b.tokenId ? 0 : a.tokenId === null ? 1 : b.tokenId === null ? -1 : cmpBig(b.tokenId, a.tokenId));
      return mergePages(pages, (b) => `${b.tokenAddress}|${String(b.tokenId)}`, inOrderOf(balanceCmp, page.order), n);
    },

    async listNftCollections(filter: NftCollectionFilter, page): Promise<readonly NftCollectionRecord[]> {
      const n = pageSize(page.limit);
      if (n === 0) return [];
      const c = page.after;
      const shown = pageSize(filter.holdings);
      const wanted = new Set<NftTokenType>(filter.types);
      // 'desc': type rank DESC, token address DESC; 'asc' the reverse
      const up = page.order === 'asc';
      const out: NftCollectionRecord[] = [];
      for (const type of up ? NFT_TOKEN_TYPES : [...NFT_TOKEN_TYPES].reverse()) {
        if (out.length >= n) break;
        if (!wanted.has(type)) continue;
        const rank = NFT_TOKEN_TYPES.indexOf(type);
        if (c !== null) {
          const cursorRank = NFT_TOKEN_TYPES.indexOf(c.tokenType);
          if (up ? rank < cursorRank : rank > cursorRank) continue;
        }
        const after = c !== null && c.tokenType === type ? c.tokenAddress : null;
        const room = n - out.length;
        // rows of NFT types in current_token_balances all have value > 0 (only ERC-7984 keeps zeros)
        let q = knex('current_token_balances').where({ holder: filter.holder, token_type: type });
        if (after !== null) q = q.andWhere('token_address', up ? '>' : '<', after);
        const addressOrder = up ? 'asc' : 'desc';
        let groups: { tokenAddress: Address; amount: bigint }[];
        if (type === 'ERC-721') {
          const rows = asRows(await q.andWhere('token_id', noId).select('token_address', 'value').orderBy('token_address', addressOrder).limit(room));
          groups = rows.map((r) => ({ tokenAddress: hex(r, 'token_address'), amount: big(r, 'value') }));
        } else {
          const rows = asRows(
            await q
              .andWhere('token_id', '<>', noId)
              .select('token_address')
              .count({ amount: '*' })
              .groupBy('token_address')
              .orderBy('token_address', addressOrder)
              .limit(room),
          );
          groups = rows.map((r) => ({ tokenAddress: hex(r, 'token_address'), amount: big(r, 'amount') }));
        }
        if (groups.length === 0) continue;
        const held = new Map<Address, { tokenId: bigint; value: bigint }[]>();
        const cond = keyCondition(d, ['token_address'], groups.map((g) => [g.tokenAddress]));
        const rows =
          shown === 0
            ? []
            : type === 'ERC-721'
              ? await raw(
                  `SELECT * FROM (SELECT "token_address", "token_id", ROW_NUMBER() OVER (PARTITION BY "token_address" ORDER BY "token_id" DESC) AS rn ` +
                    `FROM nft_owners WHERE "owner" = ? AND "token_type" = 'ERC-721' AND ${cond.sql}) h WHERE rn <= ?`,
                  [filter.holder, ...cond.bindings, shown],
                )
              : await raw(
                  `SELECT * FROM (SELECT "token_address", "token_id", "value", ROW_NUMBER() OVER (PARTITION BY "token_address" ORDER BY "token_id" DESC) AS rn ` +
                    `FROM current_token_balances WHERE "holder" = ? AND "token_type" = ? AND "token_id" <> ? AND "value" > ? AND ${cond.sql}) h ` +
                    `WHERE rn <= ?`,
                  [filter.holder, type, noId, zero, ...cond.bindings, shown],
                );
        for (const r of rows) {
          const token = hex(r, 'token_address');
          const list = held.get(token) ?? [];
          list.push({ tokenId: big(r, 'token_id'), value: type === 'ERC-721' ? 1n : big(r, 'value') });
          held.set(token, list);
        }
        for (const g of groups) {
          const holdings = (held.get(g.tokenAddress) ?? []).sort((a, b) => cmpBig(b.tokenId, a.tokenId));
          out.push({ tokenAddress: g.tokenAddress, tokenType: type, amount: g.amount, holdings });
        }
      }
      return out;
    },

    async listTokenInstances(filter, page): Promise<readonly HeldTokenInstance[]> {
      const n = pageSize(page.limit);
      if (n === 0) return [];
      const { tokenAddress, holder } = filter;
      const up = page.order === 'asc';
      const op = up ? '>' : '<';
      const idOrder = up ? 'asc' : 'desc';
      let cursor = page.after === null ? null : d.probe(page.after.tokenId);
      if (holder === undefined) {
        let q = knex('token_instances').select('token_id').where('token_address', tokenAddress);
        if (cursor !== null) q = q.andWhere('token_id', op, cursor);
        const ids = asRows(await q.orderBy('token_id', idOrder).limit(n)).map((r) => big(r, 'token_id'));
        const found = await getTokenInstances(ids.map((tokenId) => ({ tokenAddress, tokenId })));
        return found.map((instance) => ({ instance, value: null }));
      }
      // candidates: ERC-721 ids the holder owns by transfers, and ids it has a positive balance of;
      // the instance's type then decides which test applies (memory adapter semantics)
      const out: HeldTokenInstance[] = [];
      const batch = Math.max(n, 16);
      /** `a` comes no later than `b` in the page's order */
      const notAfter = (a: bigint, b: bigint) => (up ? a <= b : a >= b);
      for (;;) {
        let owned = knex('nft_owners').select('token_id').where({ owner: holder, token_address: tokenAddress, token_type: 'ERC-721' });
        // (value > 0 is checked below: as a SQL term it would steer SQLite off the primary key)
        let balances = knex('current_token_balances').select('token_id', 'value').where({ holder, token_address: tokenAddress }).andWhere('token_id', '<>', noId);
        if (cursor !== null) {
          owned = owned.andWhere('token_id', op, cursor);
          balances = balances.andWhere('token_id', op, cursor);
        }
        const ownedRows = asRows(await owned.orderBy('token_id', idOrder).limit(batch));
        const balanceRows = asRows(await balances.orderBy('token_id', idOrder).limit(batch));
        const value = new Map<bigint, bigint>();
        for (const r of balanceRows) if (big(r, 'value') > 0n) value.set(big(r, 'token_id'), big(r, 'value'));
        const ids = [...new Set([...ownedRows.map((r) => big(r, 'token_id')), ...value.keys()])].sort((a, b) => (up ? cmpBig(a, b) : cmpBig(b, a)));
        // both seeks are complete up to the earlier (in page order) of their last ids
        const ends = [ownedRows, balanceRows].filter((rs) => rs.length === batch).map((rs) => big(rs[rs.length - 1], 'token_id'));
        const bound = ends.length === 0 ? null : ends.reduce((a, b) => (notAfter(a, b) ? a : b));
        const safe = bound === null ? ids : ids.filter((id) => notAfter(id, bound));
        const instances = await getTokenInstances(safe.map((tokenId) => ({ tokenAddress, tokenId })));
        const byId = new Map(instances.map((i) => [i.tokenId, i]));
        for (const id of safe) {
          const instance = byId.get(id);
          if (instance === undefined) continue;
          if (instance.tokenType === 'ERC-721') {
            if (instance.owner === holder) out.push({ instance, value: 1n });
          } else {
            const v = value.get(id) ?? (await balanceOf(holder, tokenAddress, id));
            if (v > 0n) out.push({ instance, value: v });
          }
          if (out.length >= n) return out;
        }
        if (bound === null || safe.length === 0) return out;
        cursor = d.key(bound);
      }
    },

    async listStateChanges(transactionHash) {
      const rows = await knex('state_changes').where('transaction_hash', transactionHash).orderBy('ordinal', 'asc');
      return asRows(rows).map(toStateChange);
    },
  };

  async function balanceOf(holder: Address, token: Address, id: bigint): Promise<bigint> {
    const rows = asRows(await knex('current_token_balances').select('value').where({ holder, token_address: token, token_id: d.probe(id) }));
    return rows.length === 0 ? 0n : big(rows[0], 'value');
  }
}

function metadataOf(text: string): Record<string, unknown> | null {
  const v: unknown = JSON.parse(text);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  return v as Record<string, unknown>;
}
