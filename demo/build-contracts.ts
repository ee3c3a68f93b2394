/**
 * `npm run build:contracts`: compile demo/contracts/*.sol (solc-js, a devDependency) into the
 * checked-in module demo/artifacts.ts, which the demo loads at run time.
 */
import { writeFile } from 'node:fs/promises';
import { artifactsFile, compileContracts, renderArtifacts } from './compile.ts';

const compilation = await compileContracts();
await writeFile(artifactsFile, renderArtifacts(compilation));
process.stdout.write(`wrote ${artifactsFile}: ${Object.keys(compilation.contracts).sort().join(', ')} (solc ${compilation.solc})\n`);
