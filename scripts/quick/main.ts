// test:quick's first group: lib, the memory store, the port suite, the host in process (groups.ts).
import { MAIN } from './groups.ts';
import { runInOneProcess } from './run.ts';

await runInOneProcess(MAIN);
