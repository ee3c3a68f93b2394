// The advanced-filter suite over the postgres store (see advancedFilters.ts; SCOUTKIT_STORES selects stores).
import { runAdvancedOn } from './advancedFilters.ts';

await runAdvancedOn('postgres');
