'use strict';
// require('scoutkit/fixture'): scoutkit is ESM only (see esm-only.cjs)
require('./esm-only.cjs')('scoutkit/fixture');
