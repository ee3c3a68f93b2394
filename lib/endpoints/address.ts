/**
 * GET /addresses/{address_hash_param} — the address detail. Always 200 for a well-formed hash:
 * an address never seen on chain gets the empty defaults, as in Blockscout. The coin balance
 * is the newest of the indexer's balance records; each `has_*` flag is the first row of the
 * matching keyset list; the creation status is read from the creating transaction (or trace).
 */
import * as E from 'fp-ts/lib/Either.js';
import { verifiedByAddress } from '../contracts/lookup.ts';
import type { Address, AddressRecord } from '../domain/records.ts';
import { addressHash } from '../params/codecs.ts';
import type { DataSource } from '../ports.ts';
import { renderAddress } from '../render/address.ts';
import { loadProxyView } from '../proxy/view.ts';
import { checksum } from '../render/format.ts';
import { renderToken } from '../render/token.ts';
import { AddressDetail } from '../schema/addressDetail.ts';
import { defineEndpoint } from './endpoint.ts';

const one = { after: null, limit: 1, order: 'desc' } as const;

/** Blockscout's creation_status: failed when the creating transaction (or trace) failed. */
async function creationStatus(ds: DataSource, record: AddressRecord): Promise<'success' | 'failed' | null> {
  if (!record.isContract) return null;
  const hash = record.creationTransactionHash;
  if (hash === null) return 'success';
  const tx = await ds.getTransaction(hash);
  if (tx === null) return 'success';
  if (tx.createdContract === record.hash) return tx.status === 'error' ? 'failed' : 'success';
  // created by a contract: the create trace of that transaction
  const traces = await ds.listInternalTransactions({ transactionHash: hash, address: record.hash, direction: 'to' }, { after: null, limit: 100, order: 'asc' });
  const trace = traces.find((it) => it.createdContract === record.hash);
  return trace !== undefined && trace.error !== null ? 'failed' : 'success';
}

async function exists<T>(rows: Promise<readonly T[]>): Promise<boolean> {
  return (await rows).length > 0;
}

export const address = defineEndpoint({
  route: '/addresses/{address_hash_param}',
  summary: 'An address: coin balance, contract creation, token, and which tabs have rows',
  path: { address_hash_param: addressHash },
  query: {},
  response: AddressDetail,
  handler:
    ({ ds, chain }) =>
    ({ path }) =>
    async () => {
      const hash: Address = path.address_hash_param;
      const [records, token, balances, hasLogs, hasTransfers, hasTokens, hasBlocks, hasReorgs, hasWithdrawals, verified, proxyView] = await Promise.all([
        ds.getAddresses([hash]),
        ds.getToken(hash),
        ds.listCoinBalances({ address: hash }, one),
        exists(ds.listLogs({ address: hash }, one)),
        exists(ds.listTokenTransfers({ address: hash }, one)),
        exists(ds.listTokenBalances({ holder: hash }, one)),
        exists(ds.listBlocks({ kind: 'block', miner: hash }, one)),
        exists(ds.listBlocks({ kind: 'reorg', miner: hash }, one)),
        exists(ds.listWithdrawals({ address: hash }, one)),
        chain.contracts === undefined ? Promise.resolve(undefined) : verifiedByAddress(ds, chain.contracts, [hash]),
        loadProxyView(ds, chain.contracts, [hash]),
      ]);
      const record = records[0];
      const balance = balances[0];
      const contract = record?.isContract === true;
      const status = record === undefined ? null : await creationStatus(ds, record);
      const creator = contract ? (record?.creatorAddress ?? null) : null;
      return E.right({
        ...renderAddress(hash, { addresses: new Map(record === undefined ? [] : [[hash, record]]), ...(verified !== undefined ? { verified } : {}), ...proxyView }),
        // verified at this address (a bytecode twin is not; Blockscout: false for an unknown address too)
        is_verified: verified?.get(hash)?.own === true,
        block_number_balance_updated_at: balance?.blockNumber ?? null,
        coin_balance: balance === undefined ? null : balance.value.toString(),
        creation_status: status,
        // as Blockscout: both only when a creator is known
        creation_transaction_hash: creator === null ? null : (record?.creationTransactionHash ?? null),
        creator_address_hash: creator === null ? null : checksum(creator),
        exchange_rate: null,
        has_beacon_chain_withdrawals: hasWithdrawals,
        has_logs: hasLogs,
        has_token_transfers: hasTransfers,
        has_tokens: hasTokens,
        has_validated_blocks: hasBlocks || hasReorgs,
        token: token === null ? null : renderToken(token),
        watchlist_address_id: null,
      });
    },
});
