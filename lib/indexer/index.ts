/** The indexer: fill a DataSink from a ChainSource (see indexer.ts). */
export { createIndexer } from './indexer.ts';
export { OutageError } from './outage.ts';
export type { OutageTarget } from './outage.ts';
export type { Indexer, IndexerEvent, IndexerOptions, ProgressEvent, RunOptions, RunSummary } from './events.ts';
export type { HoldOptions, HoldReport } from './hold.ts';
export type { ProofOptions, Verdict } from './order.ts';
export { ChainMismatchError, ReorgTooDeepError } from './identity.ts';
export type { ChainIdentity } from './identity.ts';
export { missingFeatures, traceModeOf, tracingLine } from './capabilities.ts';
export { TRACE_MODES } from '../chain-source.ts';
export type { ChainCapabilities, TraceMode } from '../chain-source.ts';
export { createFactCache, gatherFacts, expandUri } from './facts.ts';
export { backfillUserOperations } from './userOpsBackfill.ts';
export type { UserOperationBackfillDeps, UserOperationBackfillSummary } from './userOpsBackfill.ts';
export type { FactCache } from './facts.ts';
export { describeHolder, LeaseHeldError, LeaseLostError, leasedSink } from './lease.ts';
export type { HeldLease, LeaseAttempt, LeaseHolder, StoreLease } from './lease.ts';
