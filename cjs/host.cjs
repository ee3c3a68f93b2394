'use strict';
// require('scoutkit/host'): scoutkit is ESM only (see esm-only.cjs)
require('./esm-only.cjs')('scoutkit/host');
