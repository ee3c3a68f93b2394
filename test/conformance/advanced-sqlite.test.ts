// The advanced-filter suite over the sqlite store (see advancedFilters.ts; SCOUTKIT_STORES selects stores).
import { runAdvancedOn } from './advancedFilters.ts';

await runAdvancedOn('sqlite');
