/**
 * The SQL stores against the memory reference: the fixture chain loaded into both, then every
 * lookup and every list (walked to its end by cursor, 7 records a page) must give identical
 * records. Runs over every SQL store SCOUTKIT_STORES selects (see test/support/stores.ts).
 */
import t from 'tap';
import { createMemoryStore } from '../../../adapters/memory/index.ts';
import { loadFixtureChain } from '../../../fixture/index.ts';
import { storeFactories } from '../../support/stores.ts';
import { chainKeys, digest } from './digest.ts';

const factories = (await storeFactories()).filter((f) => f.name !== 'memory');
if (factories.length === 0) t.pass('no SQL store selected');

const memory = createMemoryStore();
const chain = await loadFixtureChain(memory);
const keys = chainKeys(chain.bundles, chain.pending);
const expected = await digest(memory, keys);

for (const factory of factories) {
  await t.test(`${factory.name}: every read equals the memory store's`, async (t) => {
    const store = await factory.open();
    t.teardown(() => store.close());
    await loadFixtureChain(store);
    t.strictSame(await store.getIndexedHead(), await memory.getIndexedHead(), 'getIndexedHead');
    const actual = await digest(store, keys);
    t.equal(actual.length, expected.length, 'same number of reads');
    let mismatches = 0;
    for (let i = 0; i < expected.length; i++) {
      const e = expected[i];
      const a = actual[i];
      if (a === undefined || a.label !== e.label) {
        t.fail(`read ${i}: label ${String(a?.label)} != ${e.label}`);
        break;
      }
      // one assertion per read would drown the output: report the mismatches only
      if (!deepEqual(a.value, e.value)) {
        mismatches++;
        if (mismatches <= 15) t.strictSame(jsonish(a.value), jsonish(e.value), e.label);
      }
    }
    t.equal(mismatches, 0, `all ${expected.length} reads identical`);
  });
}

/**
 * Structural equality where a property holding `undefined` counts as absent: metadata is
 * parsed JSON, which a store keeps as JSON text (the fixture writes `animation_url: undefined`).
 */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = definedKeys(a);
  const kb = definedKeys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

function definedKeys(o: object): string[] {
  return Object.entries(o)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
}

/** A copy without undefined-valued properties (for readable diffs). */
function jsonish(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(jsonish);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, jsonish(x)]));
  }
  return v;
}
