#!/usr/bin/env node
// The scoutkit CLI: TypeScript sources run through tsx (a dependency), no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../host/cli.ts');
process.exit(await main(process.argv.slice(2)));
