/**
 * The reads a block plan needs, asked of the ChainSource at the block's height: code of call
 * targets, token classification (ERC-165, else the event shape) and descriptive fields, total
 * supply, holder balances, NFT metadata, and coin balances where no prestate diff exists (and
 * of withdrawal recipients always: their credit comes after the block's last transaction).
 */
import type { Address, Hex } from '../domain/records.ts';
import type { ChainSource, TokenRead } from '../chain-source.ts';
import { INTERFACE_IDS } from '../chain-source.ts';
import type { BlockFacts, BlockPayload, BlockPlan, TokenFacts } from '../ingest/block.ts';
import { instanceKeyOf } from '../ingest/block.ts';
import { tokenBalanceKey } from '../ingest/state.ts';
import type { TransferShape } from '../ingest/transfers.ts';
import { EMPTY_HEX } from '../domain/hex.ts';

type StaticTokenFacts = Omit<TokenFacts, 'totalSupply'>;

/** What the indexer remembers between blocks: facts that do not change once true. */
export interface FactCache {
  /** addresses seen holding code */
  readonly contracts: Set<Address>;
  /** token type and descriptive fields, read once */
  readonly tokens: Map<Address, StaticTokenFacts>;
}

export function createFactCache(): FactCache {
  return { contracts: new Set(), tokens: new Map() };
}

const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const asBigint = (v: unknown): bigint | null => (typeof v === 'bigint' ? v : null);

function classify(
  shapes: ReadonlySet<TransferShape> | undefined,
  is721: boolean,
  is1155: boolean,
  probe: { symbol: string | null; decimals: bigint | null; totalSupply: bigint | null },
): TokenFacts['type'] | null {
  if (is1155) return 'ERC-1155';
  if (is721) return 'ERC-721';
  if (shapes !== undefined) {
    if (shapes.has('erc1155')) return 'ERC-1155';
    if (shapes.has('erc721')) return 'ERC-721';
    if (shapes.has('erc20')) return 'ERC-20';
  }
  // a created contract that moved nothing yet: an ERC-20 if it answers like one
  if (probe.symbol !== null && probe.decimals !== null && probe.totalSupply !== null) return 'ERC-20';
  return null;
}

/** ERC-1155 `uri` templates carry `{id}`: the id as 64 lower-case hex digits. */
export function expandUri(uri: string, id: bigint): string {
  return uri.replace(/\{id\}/g, id.toString(16).padStart(64, '0'));
}

export async function gatherFacts(
  source: ChainSource,
  payload: BlockPayload,
  plan: BlockPlan,
  cache: FactCache,
  options: { readonly prestate: boolean },
): Promise<BlockFacts> {
  const n = payload.block.number;

  // ---- code ----
  const contracts = new Set<Address>(plan.createdContracts.map((c) => c.address));
  const unknown = plan.callTargets.filter((a) => !contracts.has(a) && !cache.contracts.has(a));
  const codes = await Promise.all(unknown.map((a) => source.getCode(a, n)));
  unknown.forEach((a, i) => {
    if ((codes[i] ?? EMPTY_HEX) !== EMPTY_HEX) cache.contracts.add(a);
  });
  for (const a of plan.callTargets) if (cache.contracts.has(a)) contracts.add(a);
  for (const c of plan.createdContracts) cache.contracts.add(c.address);
  // runtime code of created contracts that no trace gave: as of the end of the creation block
  const uncoded = plan.createdContracts.filter((c) => c.code === null).map((c) => c.address);
  const createdCode = await Promise.all(uncoded.map((a) => source.getCode(a, n)));
  const createdCodes = new Map<Address, Hex>(uncoded.map((a, i) => [a, createdCode[i] ?? '0x']));

  // ---- tokens: classification of new ones, supply of all ----
  const candidates = [...new Set<Address>([...plan.tokenShapes.keys(), ...plan.tokenCandidates])];
  const fresh = candidates.filter((a) => !cache.tokens.has(a));
  const reads1: TokenRead[] = [];
  for (const token of fresh) {
    reads1.push(
      { kind: 'supportsInterface', token, interfaceId: INTERFACE_IDS.erc721 },
      { kind: 'supportsInterface', token, interfaceId: INTERFACE_IDS.erc1155 },
      { kind: 'name', token },
      { kind: 'symbol', token },
      { kind: 'decimals', token },
    );
  }
  for (const token of candidates) reads1.push({ kind: 'totalSupply', token });
  const r1 = reads1.length === 0 ? [] : await source.readTokens(reads1, n);
  const supply = new Map<Address, bigint | null>();
  candidates.forEach((token, i) => supply.set(token, asBigint(r1[fresh.length * 5 + i])));
  fresh.forEach((token, i) => {
    const at = i * 5;
    const probe = { symbol: asString(r1[at + 3]), decimals: asBigint(r1[at + 4]), totalSupply: supply.get(token) ?? null };
    const type = classify(plan.tokenShapes.get(token), r1[at] === true, r1[at + 1] === true, probe);
    if (type === null) return;
    cache.tokens.set(token, { type, name: asString(r1[at + 2]), symbol: probe.symbol, decimals: type === 'ERC-20' ? probe.decimals : null });
  });
  const tokens = new Map<Address, TokenFacts>();
  for (const token of candidates) {
    const f = cache.tokens.get(token);
    if (f !== undefined) tokens.set(token, { ...f, totalSupply: supply.get(token) ?? null });
  }

  // ---- balances and token URIs ----
  const reads2: TokenRead[] = [];
  const balanceKeys: string[] = [];
  for (const k of plan.balanceKeys) {
    const t = tokens.get(k.token);
    if (t === undefined) continue;
    balanceKeys.push(tokenBalanceKey(k.holder, k.token, k.id));
    reads2.push(
      k.id === null
        ? { kind: 'balanceOf', token: k.token, holder: k.holder }
        : { kind: 'balanceOf1155', token: k.token, holder: k.holder, id: k.id },
    );
  }
  const mints = plan.mints.filter((m) => {
    const t = tokens.get(m.token)?.type;
    return t === 'ERC-721' || t === 'ERC-1155';
  });
  for (const m of mints) {
    reads2.push({ kind: tokens.get(m.token)?.type === 'ERC-1155' ? 'uri' : 'tokenURI', token: m.token, id: m.id });
  }
  const r2 = reads2.length === 0 ? [] : await source.readTokens(reads2, n);
  const balances = new Map<string, bigint | null>();
  balanceKeys.forEach((key, i) => balances.set(key, asBigint(r2[i])));
  const metadata = new Map<string, Record<string, unknown> | null>();
  await Promise.all(
    mints.map(async (m, i) => {
      const uri = asString(r2[balanceKeys.length + i]);
      const meta = uri === null || uri === '' ? null : await source.fetchMetadata(expandUri(uri, m.id));
      metadata.set(instanceKeyOf(m.token, m.id), meta);
    }),
  );

  // ---- coin balances without prestate diffs ----
  const coinBalances = new Map<Address, bigint>();
  // without prestate diffs: every party; with them: withdrawal recipients (credited outside the diffs)
  const coinReads = options.prestate ? plan.withdrawalRecipients : plan.coinParties;
  const values = await Promise.all(coinReads.map((a) => source.getBalance(a, n)));
  coinReads.forEach((a, i) => coinBalances.set(a, values[i] ?? 0n));

  return { contracts, tokens, balances, metadata, coinBalances, createdCodes };
}
