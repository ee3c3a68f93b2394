'use strict';
// scoutkit is ESM only. `require('scoutkit')` (or a subpath) resolves here through the "require"
// condition of package.json "exports", so CommonJS gets this explanation instead of Node's
// ERR_PACKAGE_PATH_NOT_EXPORTED.
module.exports = function esmOnly(specifier) {
  const error = new Error(
    `${specifier} is ESM only: require('${specifier}') cannot load it.\n` +
      `Use import instead. In an ES module (a .mjs file, or "type": "module" in your package.json):\n` +
      `  import * as scoutkit from '${specifier}';\n` +
      `or, from CommonJS, a dynamic import (in an async function):\n` +
      `  const scoutkit = await import('${specifier}');`,
  );
  error.code = 'ERR_REQUIRE_ESM';
  throw error;
};
