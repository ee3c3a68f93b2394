/**
 * Blockscout's live topics (docs: shared/reference/blockscout-live.md §2), as far as the store
 * feeds them: which can be joined, and why not. Topic strings are exact: events are published
 * on lowercase topics only, so a mixed-case address topic is accepted (Blockscout validates
 * case-insensitively) but receives nothing, as in Blockscout.
 */

export type Topic =
  | { readonly kind: 'new_block' }
  | { readonly kind: 'miner'; readonly address: string }
  | { readonly kind: 'new_transaction' }
  | { readonly kind: 'new_pending_transaction' }
  | { readonly kind: 'address'; readonly address: string }
  | { readonly kind: 'token'; readonly address: string }
  /** `transactions:{hash}`: `collated` once the transaction is mined */
  | { readonly kind: 'transaction'; readonly hash: string }
  /** accepted as Blockscout accepts them, never fed (nothing in the store drives them yet) */
  | { readonly kind: 'silent' };

export type TopicError = 'Invalid address hash' | 'unmatched topic';

const HASH = /^0x[0-9a-fA-F]{40}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/** Blockscout's join rule for a topic: the topic, or the join error's reason. */
export function parseTopic(topic: string): Topic | TopicError {
  const colon = topic.indexOf(':');
  if (colon < 0) return 'unmatched topic';
  const prefix = topic.slice(0, colon);
  const rest = topic.slice(colon + 1);
  switch (prefix) {
    case 'blocks':
      if (rest === 'new_block') return { kind: 'new_block' };
      if (rest === 'indexing' || rest === 'indexing_internal_transactions') return { kind: 'silent' };
      return HASH.test(rest) ? { kind: 'miner', address: rest } : 'Invalid address hash';
    case 'addresses':
      return HASH.test(rest) ? { kind: 'address', address: rest } : 'Invalid address hash';
    case 'transactions':
      if (rest === 'new_transaction') return { kind: 'new_transaction' };
      if (rest === 'new_pending_transaction') return { kind: 'new_pending_transaction' };
      return TX_HASH.test(rest) ? { kind: 'transaction', hash: rest } : { kind: 'silent' };
    case 'tokens':
      return HASH.test(rest) ? { kind: 'token', address: rest } : { kind: 'silent' };
    case 'token_instances':
      return { kind: 'silent' };
    case 'exchange_rate':
      return rest === 'new_rate' ? { kind: 'silent' } : 'unmatched topic';
    case 'rewards':
      return HASH.test(rest) ? { kind: 'silent' } : 'Invalid address hash';
    default:
      return 'unmatched topic';
  }
}

/** The exact topic strings events are published on. */
export const TOPICS = {
  newBlock: 'blocks:new_block',
  miner: (address: string) => `blocks:${address.toLowerCase()}`,
  newTransaction: 'transactions:new_transaction',
  newPendingTransaction: 'transactions:new_pending_transaction',
  address: (address: string) => `addresses:${address.toLowerCase()}`,
  token: (address: string) => `tokens:${address.toLowerCase()}`,
  transaction: (hash: string) => `transactions:${hash.toLowerCase()}`,
} as const;
