/**
 * ERC-4337 user operations (lib/domain/userOperations.ts): their filters, cursors and queries,
 * an optional family of the DataSource (a store without it has no user operations: the
 * account-abstraction paths answer as for an empty chain). Only operations of consensus blocks
 * are listed; a reorg takes them away with their block.
 */
import type { Address, Hash } from '../domain/records.ts';
import type { UserOperationRecord } from '../domain/userOperations.ts';
import type { Page } from './page.ts';
import type { UserOperationRole } from './userOperationRoles.ts';

export type { UserOperationRole } from './userOperationRoles.ts';

/** Every given field must match (Blockscout's `/userOps` filters). */
export interface UserOperationFilter {
  readonly sender?: Address;
  readonly bundler?: Address;
  readonly paymaster?: Address;
  readonly factory?: Address;
  readonly entryPoint?: Address;
  readonly transactionHash?: Hash;
  /** the bundle's position in its transaction (Blockscout applies it only with transactionHash) */
  readonly bundleIndex?: number;
  readonly blockNumber?: number;
}
/** Order desc: (blockNumber DESC, hash DESC). Cursor: strictly past (blockNumber, hash). */
export interface UserOperationCursor {
  readonly blockNumber: number;
  readonly hash: Hash;
}

/** One bundle: the operations of one (transaction, bundleIndex). */
export interface UserOperationBundle {
  readonly transactionHash: Hash;
  readonly bundleIndex: number;
  readonly blockNumber: number;
  readonly timestamp: number;
  /** the beneficiary of the bundle's call */
  readonly bundler: Address;
  readonly totalOps: number;
}
export interface UserOperationBundleFilter {
  readonly bundler?: Address;
  readonly entryPoint?: Address;
}
/** Order desc: (blockNumber DESC, transactionHash DESC, bundleIndex DESC). */
export interface UserOperationBundleCursor {
  readonly blockNumber: number;
  readonly transactionHash: Hash;
  readonly bundleIndex: number;
}

/**
 * The user-operation queries of a DataSource: optional, all together (both built-in stores
 * answer them: VersionedDataSource). A store without them holds no user operations.
 */
export interface UserOperationQueries extends UserOperationPartyQueries {
  /** The operation with this hash (of a consensus block), or null. */
  getUserOperation?(hash: Hash): Promise<UserOperationRecord | null>;
  listUserOperations?(filter: UserOperationFilter, page: Page<UserOperationCursor>): Promise<readonly UserOperationRecord[]>;
  /** Bundles with their operation counts; a bundle matches when any of its operations does. */
  listUserOperationBundles?(filter: UserOperationBundleFilter, page: Page<UserOperationBundleCursor>): Promise<readonly UserOperationBundle[]>;
}


/** One party of a role: an account (sender), bundler, paymaster or factory, with its counts. */
export interface UserOperationParty {
  readonly role: UserOperationRole;
  readonly address: Address;
  /** operations naming it in that role (a factory's: the accounts it created) */
  readonly totalOps: number;
  /** bundles it was the beneficiary of (bundler; 0 for the other roles) */
  readonly totalBundles: number;
}
/**
 * Order desc: (count DESC, address DESC), count being totalBundles for bundlers and totalOps
 * for the other roles. Cursor: strictly past (count, address).
 */
export interface UserOperationPartyCursor {
  readonly count: number;
  readonly address: Address;
}

/** Kept counts per party (maintained on write, rollback and backfill; never a scan per request). */
export interface UserOperationPartyQueries {
  listUserOperationParties?(role: UserOperationRole, page: Page<UserOperationPartyCursor>): Promise<readonly UserOperationParty[]>;
  /** the parties of a role among `addresses` (absent: no operation names them), in no order */
  getUserOperationParties?(role: UserOperationRole, addresses: readonly Address[]): Promise<readonly UserOperationParty[]>;
  /**
   * Accounts (the senders of consensus operations) with their kept operation counts and their
   * creation, in address order (Blockscout's `/accounts`): the filter's factory keeps the
   * accounts one of whose operations carries it. A seek, never a scan per request.
   */
  listUserOperationAccounts?(filter: UserOperationAccountFilter, page: Page<UserOperationAccountCursor>): Promise<readonly UserOperationAccount[]>;
}

/** An account's creation: its oldest operation (blockNumber ASC, hash ASC) carrying a factory. */
export interface UserOperationCreation {
  readonly factory: Address;
  readonly transactionHash: Hash;
  /** the operation's hash */
  readonly hash: Hash;
  readonly timestamp: number;
}
/** One account: a sender of user operations. */
export interface UserOperationAccount {
  readonly address: Address;
  /** its consensus operations (the kept count of its sender party) */
  readonly totalOps: number;
  /** null when none of its operations carries a factory (an account deployed otherwise) */
  readonly creation: UserOperationCreation | null;
}
export interface UserOperationAccountFilter {
  /** accounts with an operation carrying this factory (its initCode's first 20 bytes) */
  readonly factory?: Address;
}
/** Order desc (the list's stated order): address ASC; 'asc' its reverse. Cursor: strictly past `address`. */
export interface UserOperationAccountCursor {
  readonly address: Address;
}
