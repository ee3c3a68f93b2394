'use strict';
// require('scoutkit'): scoutkit is ESM only (see esm-only.cjs)
require('./esm-only.cjs')('scoutkit');
