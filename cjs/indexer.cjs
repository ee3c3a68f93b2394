'use strict';
// require('scoutkit/indexer'): scoutkit is ESM only (see esm-only.cjs)
require('./esm-only.cjs')('scoutkit/indexer');
