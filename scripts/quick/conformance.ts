// test:quick's second group: every answer against the OpenAPI documents, the layering rules (groups.ts).
import { CONFORMANCE } from './groups.ts';
import { runInOneProcess } from './run.ts';

await runInOneProcess(CONFORMANCE);
