/**
 * scoutkit is ESM only: `require('scoutkit')` (or any subpath) throws at run time, saying so.
 * From CommonJS, load it with a dynamic import: `const scoutkit = await import('scoutkit')`;
 * or make your module an ES module (a .mts file, or "type": "module" in package.json) and
 * `import { createExplorer } from 'scoutkit'`.
 */
declare const scoutkitIsEsmOnly: unique symbol;
export = scoutkitIsEsmOnly;
