/**
 * The contract verifier `scoutkit serve` gives its chains (ChainConfig.verifier): solc-js in a
 * bounded pool of worker threads (adapters/solc), its compilers in a directory (`--compilers`,
 * default ~/.cache/scoutkit/compilers; the installed `solc` package's own version compiled with
 * its soljson.js where it is; another version downloaded from the official list, or
 * $SCOUTKIT_SOLC_BINARIES, when online). solc is an optional peer dependency, loaded here on
 * demand: without it the server serves on, and the verification endpoints answer that
 * verification is not available.
 */
import type { ContractVerifier } from '../lib/contracts/verifier.ts';

export interface VerifierSetup {
  /** undefined when solc is not installed */
  readonly verifier?: ContractVerifier;
  /** one line for the start-up log */
  readonly note: string;
}

export interface VerifierOptions {
  /** the compiler directory */
  readonly compilers?: string;
  /** compile workers (default 1, at most the cores) */
  readonly workers?: number;
}

export async function openVerifier(options: VerifierOptions = {}): Promise<VerifierSetup> {
  let solc: typeof import('../adapters/solc/index.ts');
  try {
    solc = await import('../adapters/solc/index.ts');
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { note: `contract verification off: the optional dependency solc is not installed (npm install solc) — ${why}` };
  }
  const dir = options.compilers ?? solc.defaultCompilersDir();
  const verifier = solc.createSolcVerifier({ compilers: { dir }, ...(options.workers !== undefined ? { size: options.workers } : {}) });
  const packaged = verifier.compilers.packages.map((p) => `v${p.version}`);
  const own = packaged.length > 0 ? ` and npm's solc (${packaged.join(', ')}, no download)` : '';
  return { verifier, note: `contract verification on: solc-js in worker threads, compilers in ${dir}${own}` };
}
