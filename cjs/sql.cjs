'use strict';
// require('scoutkit/sql'): scoutkit is ESM only (see esm-only.cjs)
require('./esm-only.cjs')('scoutkit/sql');
