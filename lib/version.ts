/** scoutkit's version (package.json's; a test keeps the two equal). */
export const SCOUTKIT_VERSION = '0.1.0';
