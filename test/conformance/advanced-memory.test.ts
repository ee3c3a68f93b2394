// The advanced-filter suite over the memory store (see advancedFilters.ts; SCOUTKIT_STORES selects stores).
import { runAdvancedOn } from './advancedFilters.ts';

await runAdvancedOn('memory');
