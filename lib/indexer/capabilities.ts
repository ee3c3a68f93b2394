/** What an index gets and lacks on a node — said once, plainly, at start. */
import type { ChainCapabilities, TraceMode } from '../chain-source.ts';

/** The rung frames and diffs are read on (capabilities without `traceMode` come from before the ladder). */
export function traceModeOf(caps: ChainCapabilities): TraceMode {
  return caps.traceMode ?? (caps.traces ? 'block' : 'none');
}

const RUNGS: Record<TraceMode, string> = {
  block: 'debug_traceBlockByNumber (callTracer, prestateTracer diffMode), a block per call',
  transaction: 'debug_traceTransaction (callTracer, prestateTracer diffMode), a transaction per call',
  parity: 'trace_block (frames) and trace_replayBlockTransactions (stateDiff)',
  structlog: "debug_traceTransaction's opcode steps, frames rebuilt from them, a transaction at a time",
  none: 'no tracing method answers',
};

/** One line: the rung and the methods behind it. */
export function tracingLine(caps: ChainCapabilities): string {
  return `tracing: ${traceModeOf(caps)} — ${RUNGS[traceModeOf(caps)]}`;
}

export function missingFeatures(caps: ChainCapabilities): string[] {
  const out: string[] = [];
  if (!caps.traces) {
    out.push(
      'no call traces (no rung of debug_traceBlockByNumber, debug_traceTransaction, trace_block or opcode steps answers): ' +
        'internal transactions, contracts created by contracts, revert data and has_error_in_internal_transactions will be missing',
    );
  }
  if (!caps.prestate) {
    out.push(
      'no state diffs (prestateTracer diffMode or trace_replayBlockTransactions stateDiff): coin state changes per transaction will be missing; ' +
        (caps.traces
          ? 'coin balances are read with eth_getBalance for every address a frame moved value to or from, the senders, recipients and miner of each block; '
          : 'coin balances are read with eth_getBalance for the senders, recipients and miner of each block only; ') +
        'proxy slots (EIP-1967/1822, beacon, Safe master copy) are read with eth_getStorageAt of the contracts each block creates or calls, at block granularity; ' +
        'EIP-7702 delegations unseen',
    );
  }
  if (!caps.blockReceipts) out.push('no eth_getBlockReceipts: receipts are fetched one transaction at a time (slower)');
  return out;
}
