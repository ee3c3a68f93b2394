/**
 * `serve --keys <file>` reloads the file on SIGHUP: the new set replaces the key ring's at once
 * (requests judged from then on use it), and what changed is logged by key NAME and plan, never
 * a key or its digest. A file that cannot be read or parsed leaves the old keys in place (the
 * error is logged); SIGHUP never stops the server.
 */
import type { KeyRing, KeySet } from './identity.ts';
import { grantDigest, loadKeysFile } from './plans.ts';
import type { KeyGrant, Plan } from './plans.ts';
import type { Logger } from './log.ts';

export interface KeysChange {
  /** `name (plan)` of keys added, removed, or whose key or plan changed */
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
  /** other settings that changed: anonymousPlan, restrictedAddresses, secretKey */
  readonly settings: readonly string[];
}

const UNNAMED = 'unnamed';

/** What changed from `before` to `after`: named keys by name, unnamed keys by their digest (said as `unnamed`). */
export function diffKeySets(before: KeySet, after: KeySet): KeysChange {
  const index = (keys: readonly KeyGrant[] = []) => {
    const named = new Map<string, { digest: string; plan: Plan }>();
    const unnamed = new Map<string, Plan>();
    for (const g of keys) {
      const digest = grantDigest(g).toString('hex');
      if (g.name) named.set(g.name, { digest, plan: g.plan });
      else unnamed.set(digest, g.plan);
    }
    return { named, unnamed };
  };
  const was = index(before.keys);
  const now = index(after.keys);
  const label = (name: string, plan: Plan) => `${name} (${plan.name})`;
  const samePlan = (a: Plan, b: Plan) => JSON.stringify(a) === JSON.stringify(b);
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  for (const [name, g] of now.named) {
    const old = was.named.get(name);
    if (old === undefined) added.push(label(name, g.plan));
    else {
      const what = [
        ...(old.digest !== g.digest ? ['new key'] : []),
        ...(samePlan(old.plan, g.plan) ? [] : [old.plan.name === g.plan.name ? `plan ${g.plan.name} edited` : `plan ${old.plan.name} → ${g.plan.name}`]),
      ];
      if (what.length > 0) changed.push(`${name}: ${what.join(', ')}`);
    }
  }
  for (const [name, g] of was.named) if (!now.named.has(name)) removed.push(label(name, g.plan));
  for (const [digest, plan] of now.unnamed) {
    const old = was.unnamed.get(digest);
    if (old === undefined) added.push(label(UNNAMED, plan));
    else if (!samePlan(old, plan)) changed.push(`${UNNAMED}: plan ${old.name} → ${plan.name}`);
  }
  for (const [digest, plan] of was.unnamed) if (!now.unnamed.has(digest)) removed.push(label(UNNAMED, plan));
  const settings = [
    ...(JSON.stringify(before.anonymousPlan ?? null) !== JSON.stringify(after.anonymousPlan ?? null) ? ['anonymousPlan'] : []),
    ...(JSON.stringify(before.restrictedAddresses ?? []) !== JSON.stringify(after.restrictedAddresses ?? []) ? ['restrictedAddresses'] : []),
    ...(before.secretKey !== after.secretKey ? ['secretKey'] : []),
  ];
  return { added, removed, changed, settings };
}

/**
 * Reload `path` into `ring` (and log it); resolves to the change, or undefined when the file
 * was refused (the old keys stay).
 */
export async function reloadKeys(path: string, ring: KeyRing, log: Logger): Promise<KeysChange | undefined> {
  let next: KeySet;
  try {
    next = await loadKeysFile(path);
  } catch (e) {
    log.error('keys file not reloaded: the old keys stay', { file: path, error: e instanceof Error ? e.message : String(e), keys: ring.set.keys?.length ?? 0 });
    return undefined;
  }
  const change = diffKeySets(ring.set, next);
  ring.replace(next);
  log.info('keys reloaded', { file: path, keys: next.keys?.length ?? 0, ...change });
  return change;
}

/** On each SIGHUP, reload (one at a time); returns the function that stops listening. */
export function reloadKeysOnSighup(path: string | undefined, ring: KeyRing, log: Logger): () => void {
  let running: Promise<unknown> = Promise.resolve();
  const onHup = (): void => {
    if (path === undefined) {
      log.info('SIGHUP: no --keys file to reload');
      return;
    }
    running = running.then(() => reloadKeys(path, ring, log));
  };
  process.on('SIGHUP', onHup);
  return () => void process.off('SIGHUP', onHup);
}
