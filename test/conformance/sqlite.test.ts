// The conformance suite over the sqlite store (see suite.ts; SCOUTKIT_STORES selects stores).
import { runConformanceOn } from './suite.ts';

await runConformanceOn('sqlite');
