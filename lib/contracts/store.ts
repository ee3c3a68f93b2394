/** The contract store port, declared in lib/ports/contractStore.ts. */
export type * from '../ports/contractStore.ts';
