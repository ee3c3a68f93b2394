/**
 * Approvals the actor gave, read from the logs (by topic, so an undecoded token counts too):
 * - ERC-20 `Approval(owner, spender, value)`: `Approve {amount} {token} for {spender}`;
 *   the largest uint256 reads `Approve unlimited {token} for {spender}`; 0 reads
 *   `Revoke {token} approval for {spender}`;
 * - ERC-721 `Approval(owner, approved, tokenId)`: `Approve {token} #{token_id} for {spender}`;
 *   the zero address approved reads `Revoke {token} #{token_id} approval`;
 * - `ApprovalForAll(owner, operator, approved)`: `Approve all {token} for {operator}`, or
 *   `Revoke all {token} for {operator}`.
 * Only approvals whose owner is the actor: a `transferFrom` that spends an allowance emits an
 * Approval of the owner's too (OpenZeppelin 4), which is no approval the sender gave.
 */
import type { Address, Hex, TokenRecord, TokenType } from '../../domain/records.ts';
import { ZERO_ADDRESS } from '../../domain/hex.ts';
import { scaled } from '../amounts.ts';
import type { SummaryItem, SummaryLog } from '../types.ts';
import { address, currency, text, token } from '../types.ts';
import { hex } from '../../domain/hex.ts';

/** keccak256('Approval(address,address,uint256)') */
export const APPROVAL_TOPIC = hex('0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925');
/** keccak256('ApprovalForAll(address,address,bool)') */
export const APPROVAL_FOR_ALL_TOPIC = hex('0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31');
const MAX_UINT256 = 2n ** 256n - 1n;

const topicAddress = (topic: Hex | undefined): Address | null => (topic === undefined || topic.length !== 66 ? null : (`0x${topic.slice(26)}`.toLowerCase() as Address));
const word = (data: Hex): bigint | null => (data.length < 66 ? null : BigInt(data.slice(0, 66)));

function erc20(log: SummaryLog, spender: Address, tokens: ReadonlyMap<Address, TokenRecord>): SummaryItem | null {
  const value = word(log.data);
  if (value === null) return null;
  const tok = token(log.address, tokens.get(log.address)?.type ?? 'ERC-20');
  if (value === 0n) return { template: '{action_type} {token} approval for {spender}', variables: { action_type: text('Revoke'), token: tok, spender: address(spender) } };
  if (value === MAX_UINT256) return { template: '{action_type} unlimited {token} for {spender}', variables: { action_type: text('Approve'), token: tok, spender: address(spender) } };
  const amount = currency(scaled(value, tokens.get(log.address)?.decimals ?? null));
  return { template: '{action_type} {amount} {token} for {spender}', variables: { action_type: text('Approve'), amount, token: tok, spender: address(spender) } };
}

function erc721(log: SummaryLog, approved: Address, tokenId: Hex, tokens: ReadonlyMap<Address, TokenRecord>): SummaryItem {
  const tok = token(log.address, tokens.get(log.address)?.type ?? 'ERC-721');
  const id = text(BigInt(tokenId).toString());
  if (approved === ZERO_ADDRESS) return { template: '{action_type} {token} #{token_id} approval', variables: { action_type: text('Revoke'), token: tok, token_id: id } };
  return { template: '{action_type} {token} #{token_id} for {spender}', variables: { action_type: text('Approve'), token: tok, token_id: id, spender: address(approved) } };
}

function forAll(log: SummaryLog, operator: Address, tokens: ReadonlyMap<Address, TokenRecord>): SummaryItem | null {
  const approved = word(log.data);
  if (approved === null) return null;
  const type: TokenType = tokens.get(log.address)?.type ?? 'ERC-721';
  return {
    template: '{action_type} all {token} for {operator}',
    variables: { action_type: text(approved === 0n ? 'Revoke' : 'Approve'), token: token(log.address, type), operator: address(operator) },
  };
}

export function approvals(logs: readonly SummaryLog[], tokens: ReadonlyMap<Address, TokenRecord>, actor: Address): SummaryItem[] {
  const out: SummaryItem[] = [];
  for (const log of logs) {
    const [topic0, ownerTopic, otherTopic, idTopic] = log.topics;
    if (topicAddress(ownerTopic) !== actor) continue;
    const other = topicAddress(otherTopic);
    if (other === null) continue;
    const one =
      topic0 === APPROVAL_TOPIC && log.topics.length === 3
        ? erc20(log, other, tokens)
        : topic0 === APPROVAL_TOPIC && log.topics.length === 4 && idTopic !== undefined
          ? erc721(log, other, idTopic, tokens)
          : topic0 === APPROVAL_FOR_ALL_TOPIC && log.topics.length === 3
            ? forAll(log, other, tokens)
            : null;
    if (one !== null) out.push(one);
  }
  return out;
}
