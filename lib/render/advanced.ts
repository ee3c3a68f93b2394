/** The AdvancedFilterItem object (`/advanced-filters`), one per merged-stream row. */
import type { Address, Hash, TransactionRecord } from '../domain/records.ts';
import { effectiveGasPrice } from '../ingest/derive.ts';
import type * as t from 'io-ts';
import type { AdvancedFilterItem } from '../schema/advanced.ts';
import type { AdvancedRow } from '../advanced/stream.ts';
import type { DataSource } from '../ports.ts';
import { renderAddress, renderAddressOrNull } from './address.ts';
import type { RenderContext, References } from './context.ts';
import { knownMethodName, transactionMethodOf } from './decode.ts';
import { dec, iso } from './format.ts';
import { transactionFee, transactionResult } from './transaction.ts';
import { renderTotal } from './transfer.ts';
import { renderToken, unknownToken } from './token.ts';

/**
 * The parent transactions of a page's rows: those on the page, the others in one batch lookup
 * (`getTransactions`), or one point lookup per distinct parent when the store has no batch.
 */
export async function parentTransactions(ds: DataSource, rows: readonly AdvancedRow[]): Promise<ReadonlyMap<Hash, TransactionRecord>> {
  const parents = new Map<Hash, TransactionRecord>();
  for (const r of rows) if (r.kind === 'transaction') parents.set(r.tx.hash, r.tx);
  const missing = [...new Set(rows.flatMap((r) => (r.kind === 'internal' ? [r.it.transactionHash] : r.kind === 'transfer' ? [r.tt.transactionHash] : [])))].filter(
    (h) => !parents.has(h),
  );
  if (missing.length === 0) return parents;
  const found = ds.getTransactions !== undefined ? await ds.getTransactions(missing) : await Promise.all(missing.map((h) => ds.getTransaction(h)));
  for (const tx of found) if (tx !== null) parents.set(tx.hash, tx);
  return parents;
}

export function advancedRefs(rows: readonly AdvancedRow[]): References {
  const addresses: (Address | null)[] = [];
  const tokens: Address[] = [];
  const instances: { tokenAddress: Address; tokenId: bigint }[] = [];
  for (const r of rows) {
    if (r.kind === 'transaction') {
      addresses.push(r.tx.from, r.tx.to, r.tx.createdContract);
    }
    else if (r.kind === 'internal') addresses.push(r.it.from, r.it.to, r.it.createdContract);
    else {
      addresses.push(r.tt.from, r.tt.to);
      tokens.push(r.tt.tokenAddress);
      if (r.tokenId !== null) instances.push({ tokenAddress: r.tt.tokenAddress, tokenId: r.tokenId });
    }
  }
  return { addresses, tokens, instances, decode: true };
}

/** contract_creation (`to` null) / contract_interaction (`to` has code) / coin_transfer. */
function coinType(to: Address | null, ctx: RenderContext): 'contract_creation' | 'contract_interaction' | 'coin_transfer' {
  if (to === null) return 'contract_creation';
  return ctx.addresses.get(to)?.isContract === true ? 'contract_interaction' : 'coin_transfer';
}

const feeOf = (tx: TransactionRecord | undefined): string => (tx === undefined ? '0' : (transactionFee(tx)['value'] as string | null) ?? '0');

/** one item of /advanced-filters, as its schema types it */
export type AdvancedFilterItemJson = t.OutputOf<typeof AdvancedFilterItem>;

/** Render a page's rows; a non-internal item of the same transaction as the item before it shows fee 0. */
export function renderAdvancedRows(rows: readonly AdvancedRow[], parents: ReadonlyMap<Hash, TransactionRecord>, ctx: RenderContext): AdvancedFilterItemJson[] {
  let previous: Hash | null = null;
  return rows.map((r) => {
    const hash = r.kind === 'transaction' ? r.tx.hash : r.kind === 'internal' ? r.it.transactionHash : r.tt.transactionHash;
    const parent = parents.get(hash);
    const repeated = previous === hash;
    previous = hash;
    const common = {
      hash,
      status: parent === undefined ? 'success' : transactionResult(parent),
      block_number: r.key[0],
      transaction_index: r.key[1],
    };
    if (r.kind === 'transaction') {
      const tx = r.tx;
      const toIsContract = tx.to !== null && ctx.addresses.get(tx.to)?.isContract === true;
      const method = transactionMethodOf(tx, toIsContract, ctx);
      return {
        ...common,
        type: coinType(tx.to, ctx),
        method,
        from: renderAddress(tx.from, ctx),
        to: renderAddressOrNull(tx.to, ctx),
        created_contract: renderAddressOrNull(tx.createdContract, ctx),
        value: dec(tx.value),
        total: null,
        token: null,
        timestamp: iso(tx.timestamp ?? 0),
        internal_transaction_index: null,
        token_transfer_index: null,
        token_transfer_batch_index: null,
        fee: repeated ? '0' : feeOf(tx),
      };
    }
    if (r.kind === 'internal') {
      const it = r.it;
      const price = parent === undefined ? null : effectiveGasPrice(parent, parent.baseFeePerGas);
      return {
        ...common,
        type: coinType(it.to, ctx),
        // the trace's own input is not stored, so its method is unknown
        method: null,
        from: renderAddress(it.from, ctx),
        to: renderAddressOrNull(it.to, ctx),
        created_contract: renderAddressOrNull(it.createdContract, ctx),
        value: dec(it.value),
        total: null,
        token: null,
        timestamp: iso(it.timestamp),
        internal_transaction_index: it.index,
        token_transfer_index: null,
        token_transfer_batch_index: null,
        fee: price === null || it.gasUsed === null ? '0' : dec(price * it.gasUsed),
      };
    }
    const tt = r.tt;
    const token = ctx.tokens.get(tt.tokenAddress) ?? unknownToken(tt.tokenAddress, tt.tokenType);
    return {
      ...common,
      type: tt.tokenType,
      method: knownMethodName(tt.methodId, ctx.abis) ?? tt.methodId,
      from: renderAddress(tt.from, ctx),
      to: renderAddress(tt.to, ctx),
      created_contract: null,
      value: null,
      total: renderTotal({ record: tt, tokenId: r.tokenId, amount: r.amount, indexInBatch: null }, ctx),
      token: renderToken(token),
      timestamp: iso(tt.timestamp),
      internal_transaction_index: null,
      token_transfer_index: tt.logIndex,
      token_transfer_batch_index: r.batchIndex,
      fee: repeated ? '0' : feeOf(parent),
    };
  });
}
