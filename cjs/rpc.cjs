'use strict';
// require('scoutkit/rpc'): scoutkit is ESM only (see esm-only.cjs)
require('./esm-only.cjs')('scoutkit/rpc');
