/**
 * The conformance suite: the same cases over every DataSource. Each store has its own test
 * file (they run in parallel) that calls `runConformance` with how to open it.
 */
import t from 'tap';
import type { Store } from '../support/explorer.ts';
import { loadExplorer } from '../support/explorer.ts';
import type { StoreName } from '../support/stores.ts';
import { storeFactories } from '../support/stores.ts';
import { addressSuite } from './addresses.ts';
import { behaviourSuite } from './behaviour.ts';
import { errorSuite } from './errors.ts';
import { openApiSuite } from './openapi.ts';
import { walkSuite } from './walks.ts';
import { validatingExplorer } from '../support/openapiOurs.ts';

export async function runConformance(storeName: string, open: () => Promise<Store>): Promise<void> {
  const plain = await loadExplorer(open);
  t.teardown(async () => plain.store.close?.());
  // every answer of every suite below is also validated against our own OpenAPI document
  const checked = validatingExplorer(plain.explorer);
  const loaded = { ...plain, explorer: checked.explorer };
  await t.test(`${storeName}: responses validate against our and the official OpenAPI documents`, (t) => openApiSuite(t, loaded));
  await t.test(`${storeName}: every list, every page, every row once`, (t) => walkSuite(t, loaded));
  await t.test(`${storeName}: filters and derived fields`, (t) => behaviourSuite(t, loaded));
  await t.test(`${storeName}: address pages`, (t) => addressSuite(t, loaded));
  await t.test(`${storeName}: bad input and unknown entities`, (t) => errorSuite(t, loaded));
  await t.test(`${storeName}: every answer above validates against our OpenAPI document`, async (t) => {
    t.same(checked.failures, [], 'no answer outside our document');
    t.ok(checked.validated() > 1000, `${checked.validated()} answers validated`);
  });
}

/** Run the suite over one named store when SCOUTKIT_STORES selects it (default: all). */
export async function runConformanceOn(name: StoreName): Promise<void> {
  const factory = (await storeFactories()).find((f) => f.name === name);
  if (factory === undefined) {
    t.comment(`${name}: not selected by SCOUTKIT_STORES, or unreachable off CI (see the line above)`);
    t.pass(`${name}: nothing to run`);
    return;
  }
  await runConformance(name, () => factory.open());
}
