'use strict';
// require('scoutkit/memory'): scoutkit is ESM only (see esm-only.cjs)
require('./esm-only.cjs')('scoutkit/memory');
