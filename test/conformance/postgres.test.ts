// The conformance suite over the postgres store (see suite.ts; SCOUTKIT_STORES selects stores).
import { runConformanceOn } from './suite.ts';

await runConformanceOn('postgres');
