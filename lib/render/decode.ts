/**
 * Decoding for the renderers: transaction input, event logs, revert reasons and `method` names,
 * with the ABIs a page's render context holds (lib/decode/decoder.ts tries them in Blockscout's
 * order): the verified ABI of the address (own or bytecode twin), its proxies' implementations,
 * every verified ABI by selector, then the known signatures — library users' ABIs
 * (`createExplorer({ abis })`), the standard token methods and events, the generated signature
 * table (lib/signatures).
 */
import type { AbiEvent, AbiFunction } from 'viem';
import { parseAbi, toFunctionSelector } from 'viem';
import type { AbiIndex } from '../decode/abiIndex.ts';
import { concatIndexes, indexAbi, indexAbiKeyed } from '../decode/abiIndex.ts';
import type { DecodedCall, DecodedEvent, DecodeTiers } from '../decode/decoder.ts';
import { decodeCall, decodeEvent, decodeRevertData, methodNameOf } from '../decode/decoder.ts';
import type { AddressVerification } from '../contracts/lookup.ts';
import type { Address, Hex, LogRecord, TokenRecord, TokenType, TransactionRecord } from '../domain/records.ts';
import { signatureIndex, signatureSelectorsNamed } from '../signatures/index.ts';
import { hex } from '../domain/hex.ts';

/** The standard token methods and events (and a few the demo and fixtures call), before the generated table. */
const STANDARD_ITEMS = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function mint(address to, uint256 amount)',
  'function burn(uint256 amount)',
  'function multicall(uint256 deadline, bytes[] data)',
  'function commit(bytes32 commitment)',
  'function deposit()',
  'function withdraw(uint256 amount)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event URI(string value, uint256 indexed id)',
]) as readonly (AbiFunction | AbiEvent)[];
const STANDARD = indexAbi(STANDARD_ITEMS);

/** An ERC-721 token's methods whose selectors ERC-20 shares (`transferFrom`, `approve`): decoded with ERC-721's names when the called token is one. */
const ERC721_ITEMS = parseAbi(['function transferFrom(address from, address to, uint256 tokenId)', 'function approve(address to, uint256 tokenId)']) as readonly AbiFunction[];
const ERC721 = indexAbi(ERC721_ITEMS);

const BUILT_IN = concatIndexes([STANDARD, signatureIndex]);

/** What decoding reads from a page's render context (all optional: without them, only the known signatures decode). */
export interface DecodeContext {
  /** the verified contract each address runs (own or a bytecode twin) */
  readonly verified?: ReadonlyMap<Address, AddressVerification>;
  /** every verified ABI of the chain's contract store, by selector */
  readonly verifiedAbis?: AbiIndex;
  /** library users' ABIs (`createExplorer({ abis })`) */
  readonly abis?: AbiIndex;
  /** the page's tokens (an ERC-721 `to` decodes `transferFrom` as ERC-721) */
  readonly tokens?: ReadonlyMap<Address, TokenRecord>;
  /** the type of the token at each of the page's addresses that holds one (read with the addresses: no token query needed) */
  readonly tokenTypes?: ReadonlyMap<Address, TokenType>;
  /**
   * The ABIs of the implementations a proxy at `address` delegates to at `block`, tried after its
   * own. The render context fills it from the proxies the indexer saw (lib/proxy/view.ts): the
   * implementation in force when transaction `transactionIndex` of `block` starts (null: the
   * latest; a null index: the end of the block).
   */
  readonly implementations?: (address: Address, block: number | null, transactionIndex: number | null) => readonly AbiIndex[];
}

/** The known signatures: library users' ABIs first, then the standard ones and the signature table. */
const knownCache = new WeakMap<AbiIndex, AbiIndex>();
export function knownIndex(abis: AbiIndex | undefined): AbiIndex {
  if (abis === undefined) return BUILT_IN;
  let known = knownCache.get(abis);
  if (known === undefined) {
    known = concatIndexes([abis, BUILT_IN]);
    knownCache.set(abis, known);
  }
  return known;
}

function ownAbi(ctx: DecodeContext, address: Address): AbiIndex | null {
  const c = ctx.verified?.get(address)?.contract;
  return c === undefined ? null : indexAbiKeyed(`${c.codeHash}:${c.id}:${c.match}`, c.abi);
}

/** The ABIs to try for a call to (or a log of) `address` at `block`, in order. */
export function tiersFor(ctx: DecodeContext, address: Address | null, block: number | null, transactionIndex: number | null = null): DecodeTiers {
  const own = address === null ? null : ownAbi(ctx, address);
  const implementations = address === null || ctx.implementations === undefined ? [] : ctx.implementations(address, block, transactionIndex);
  return {
    own: own === null ? implementations : [own, ...implementations],
    kind: address !== null && (ctx.tokenTypes?.get(address) ?? ctx.tokens?.get(address)?.type) === 'ERC-721' ? ERC721 : null,
    verified: ctx.verifiedAbis ?? null,
    known: knownIndex(ctx.abis),
  };
}

/** A transaction's `decoded_input`: null for a creation or an input that nothing decodes. */
export function decodeTransactionInput(tx: TransactionRecord, ctx: DecodeContext): DecodedCall | null {
  if (tx.to === null) return null;
  return decodeCall(tiersFor(ctx, tx.to, tx.blockNumber, tx.index), tx.input);
}

/**
 * The `method` of a transaction (Blockscout's rule): the decoded method's name; else the `0x`
 * selector when it calls a contract; else null (a creation, a plain transfer).
 */
export function transactionMethodOf(tx: TransactionRecord, toIsContract: boolean, ctx: DecodeContext): string | null {
  if (tx.to === null || tx.methodId === null) return null;
  return methodOfDecoded(tx, decodeCall(tiersFor(ctx, tx.to, tx.blockNumber, tx.index), tx.input), toIsContract);
}

/** The same rule on an input already decoded (`decodeTransactionInput`'s answer): a renderer that shows both decodes once. */
export function methodOfDecoded(tx: Pick<TransactionRecord, 'to' | 'methodId'>, decoded: DecodedCall | null, toIsContract: boolean): string | null {
  if (tx.to === null || tx.methodId === null) return null;
  const call = decoded?.method_call;
  if (call !== undefined) return call.slice(0, call.indexOf('('));
  return toIsContract ? tx.methodId : null;
}

/** A log's `decoded`, with the emitting address's ABI first. */
export function decodeLogRecord(log: Pick<LogRecord, 'address' | 'blockNumber' | 'topics' | 'data'> & { readonly transactionIndex?: number }, ctx: DecodeContext): DecodedEvent | null {
  return decodeEvent(tiersFor(ctx, log.address, log.blockNumber, log.transactionIndex ?? null), log.topics, log.data);
}

/** A revert's decoding (Error, Panic, a custom error of `to`'s ABI or any known one); null when nothing decodes it. */
export function decodeRevertReason(tx: Pick<TransactionRecord, 'to' | 'blockNumber'> & { readonly index?: number | null }, data: Hex, ctx: DecodeContext): DecodedCall | null {
  return decodeRevertData(tiersFor(ctx, tx.to, tx.blockNumber, tx.index ?? null), data);
}

/** The name of the method a selector calls by the known signatures (no address's ABI); null when none names it. */
export function knownMethodName(selector: Hex | null, abis?: AbiIndex): string | null {
  if (selector === null) return null;
  return methodNameOf(tiersFor(abis === undefined ? {} : { abis }, null, null), selector);
}

/** The selector of a known method by name (case-insensitive): the standard ones first, then the signature table; null when none names it. */
export function knownSelectorOf(name: string): Hex | null {
  const wanted = name.toLowerCase();
  for (const f of STANDARD_ITEMS) if (f.type === 'function' && f.name.toLowerCase() === wanted) return hex(toFunctionSelector(f));
  const named = signatureSelectorsNamed(name)[0];
  return named === undefined ? null : hex(named);
}
