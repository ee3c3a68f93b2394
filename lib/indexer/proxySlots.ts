/**
 * Proxy slots where no state diff shows storage writes (the structlog and none rungs): the
 * EIP-1967 implementation and beacon slots, EIP-1822's and OpenZeppelin's legacy slot of every
 * contract a block creates or calls, read with `eth_getStorageAt` at the block and the block
 * before (a contract created in the block had zeros before), and Safe's master copy (slot 0) of
 * the contracts it creates. A slot whose value changed becomes a storage-only diff — the shape
 * `detectProxies` reads — of the block's last transaction that touched the contract, so proxies
 * are seen at block granularity. Blocks are fetched out of order, so nothing is remembered
 * between blocks: every read is at a height.
 */
import type { Address, Hash } from '../domain/records.ts';
import type { AccountState, ChainSource, PrestateDiff } from '../chain-source.ts';
import type { BlockPayload, BlockPlan } from '../ingest/block.ts';
import { walkFrames, frameType } from '../ingest/traces.ts';
import { PROXY_SLOTS } from '../proxy/slots.ts';

const IMPLEMENTATION_SLOTS: readonly Hash[] = [PROXY_SLOTS.eip1967, PROXY_SLOTS.eip1822, PROXY_SLOTS.beacon, PROXY_SLOTS.eip1967Oz];
const ZERO_WORD = PROXY_SLOTS.masterCopy;

const word = (v: Hash): Hash => `0x${v.slice(2).toLowerCase().padStart(64, '0')}` as Hash;

/** Each candidate contract and the last transaction of the block that created or called it. */
function touchedContracts(payload: BlockPayload, plan: BlockPlan, contracts: ReadonlySet<Address>): Map<Address, Hash> {
  const last = new Map<Address, Hash>();
  const framesOf = new Map((payload.traces ?? []).map((t) => [t.transactionHash, t.frame]));
  for (const tx of payload.block.transactions) {
    if (tx.to !== null && contracts.has(tx.to)) last.set(tx.to, tx.hash);
    const top = framesOf.get(tx.hash);
    if (top === undefined) continue;
    for (const { frame, index } of walkFrames(top)) {
      // a call with data reaches code; delegatecalls write the caller's storage, which its own frame names
      if (index === 0 || frame.error !== null || frame.to === null || frameType(frame) === 'delegatecall') continue;
      if (frame.input.length > 2 || contracts.has(frame.to)) last.set(frame.to, tx.hash);
    }
  }
  for (const c of plan.createdContracts) if (!last.has(c.address)) last.set(c.address, c.transactionHash);
  return last;
}

/** Storage-only diffs of the proxy slots that changed in the block; [] when the source cannot read storage. */
export async function readProxySlotDiffs(
  source: ChainSource,
  payload: BlockPayload,
  plan: BlockPlan,
  contracts: ReadonlySet<Address>,
): Promise<PrestateDiff[]> {
  const getStorageAt = source.getStorageAt?.bind(source);
  if (getStorageAt === undefined) return [];
  const n = payload.block.number;
  const created = new Set(plan.createdContracts.map((c) => c.address));
  const touched = touchedContracts(payload, plan, contracts);
  const changes = await Promise.all(
    [...touched.keys()].map(async (address) => {
      const fresh = created.has(address);
      const slots = fresh ? [...IMPLEMENTATION_SLOTS, PROXY_SLOTS.masterCopy] : IMPLEMENTATION_SLOTS;
      const [after, before] = await Promise.all([
        Promise.all(slots.map((s) => getStorageAt(address, s, n))),
        fresh || n === 0 ? slots.map(() => ZERO_WORD) : Promise.all(slots.map((s) => getStorageAt(address, s, n - 1))),
      ]);
      const pre = new Map<Hash, Hash>();
      const post = new Map<Hash, Hash>();
      slots.forEach((slot, i) => {
        const a = word(after[i] ?? ZERO_WORD);
        const b = word(before[i] ?? ZERO_WORD);
        if (a === b) return;
        pre.set(slot, b);
        if (a !== ZERO_WORD) post.set(slot, a); // diffMode leaves a cleared slot out of post
      });
      return { address, pre, post, changed: pre.size > 0 };
    }),
  );
  const byTx = new Map<Hash, { pre: Map<Address, AccountState>; post: Map<Address, AccountState> }>();
  for (const c of changes) {
    if (!c.changed) continue;
    const hash = touched.get(c.address);
    if (hash === undefined) continue;
    let diff = byTx.get(hash);
    if (diff === undefined) {
      diff = { pre: new Map(), post: new Map() };
      byTx.set(hash, diff);
    }
    diff.pre.set(c.address, { storage: c.pre });
    diff.post.set(c.address, { storage: c.post });
  }
  const order = new Map(payload.block.transactions.map((t) => [t.hash, t.index]));
  return [...byTx.entries()]
    .sort(([a], [b]) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
    .map(([transactionHash, d]) => ({ transactionHash, pre: d.pre, post: d.post }));
}
