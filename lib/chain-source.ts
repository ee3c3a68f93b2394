/** The ChainSource port, declared in lib/ports/chainSource.ts. */
export * from './ports/chainSource.ts';
