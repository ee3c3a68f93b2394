#!/usr/bin/env node
// The scoutkit CLI (package.json "bin"): built to dist/bin/scoutkit.js and run by plain node.
// From a clone without a build: `node --import tsx bin/scoutkit.ts <command>`.
import { main } from '../host/cli.ts';

process.exit(await main(process.argv.slice(2)));
