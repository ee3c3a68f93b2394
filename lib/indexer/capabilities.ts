/** What an index lacks on a node without some capability — said plainly at start. */
import type { ChainCapabilities } from '../chain-source.ts';

export function missingFeatures(caps: ChainCapabilities): string[] {
  const out: string[] = [];
  if (!caps.traces) {
    out.push(
      'no call traces (debug_traceBlockByNumber callTracer): internal transactions, contracts created by contracts, ' +
        'revert data and has_error_in_internal_transactions will be missing',
    );
  }
  if (!caps.prestate) {
    out.push(
      'no prestate diffs (prestateTracer diffMode): coin state changes per transaction will be missing; ' +
        'coin balances are read with eth_getBalance for the senders, recipients and miner of each block only; ' +
        'proxies are recognized from created code only (no storage writes: EIP-1967/1822 slots, Safe master copies, EIP-7702 delegations unseen)',
    );
  }
  if (!caps.blockReceipts) out.push('no eth_getBlockReceipts: receipts are fetched one transaction at a time (slower)');
  return out;
}
