/** ERC-4337 user operations from a block's transactions, receipts and traces (pure). */
export { userOperationsOf } from './extract.ts';
export type { UserOperationInput } from './extract.ts';
export { DEFAULT_ENTRY_POINTS, ENTRY_POINT_V06, ENTRY_POINT_V07, ENTRY_POINT_V08, entryPointsWith, familyOf } from './entryPoints.ts';
export type { EntryPointFamily, EntryPoints } from './entryPoints.ts';
export { ENTRY_POINT_EVENTS_ABI, ENTRY_POINT_V06_ABI, ENTRY_POINT_V07_ABI, TOPICS } from './abi.ts';
