/**
 * The compiler directory: solc-js builds (`soljson-v0.8.26+commit.8a97fa7a.js`, or
 * `soljson-v0.8.26.js`) and native binaries (`solc-0.8.26` or `solc-v0.8.26+commit.8a97fa7a`,
 * executable), found by version; then the solc-js build an installed npm package ships (scoutkit's
 * optional dependency `solc`: its soljson.js, read where it is, no download and no copy). A version
 * none of them has is downloaded from the official list (binaries.soliditylang.org, or
 * $SCOUTKIT_SOLC_BINARIES) with its sha256 and keccak256 checked; offline, the error names the
 * version and what to do.
 */
import { createHash } from 'node:crypto';
import { constants, existsSync, readFileSync } from 'node:fs';
import { access, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { keccak256 } from 'viem';
import { compilerUnavailableText, parseCompilerVersion } from '../../lib/contracts/verifier.ts';

export const SOLC_BINARIES = 'https://binaries.soliditylang.org/bin';

export interface Compiler {
  readonly kind: 'soljson' | 'native';
  readonly path: string;
}

export class CompilerUnavailableError extends Error {
  override readonly name = 'CompilerUnavailableError';
}

export interface CompilerDirectoryOptions {
  /** default: $XDG_CACHE_HOME/scoutkit/compilers or ~/.cache/scoutkit/compilers */
  readonly dir?: string;
  /** download missing versions (default true); false: only what is in the directory */
  readonly download?: boolean;
  /** default: global fetch */
  readonly fetch?: typeof fetch;
  /** default $SCOUTKIT_SOLC_BINARIES, else https://binaries.soliditylang.org/bin */
  readonly baseUrl?: string;
  /** npm packages whose solc-js build (soljson.js) serves their version (default ['solc']; [] for none) */
  readonly packages?: readonly string[];
  /** per request, default 60 s */
  readonly downloadTimeoutMs?: number;
}

export function defaultCompilersDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env['XDG_CACHE_HOME'] !== undefined && env['XDG_CACHE_HOME'] !== '' ? env['XDG_CACHE_HOME'] : join(homedir(), '.cache');
  return join(cache, 'scoutkit', 'compilers');
}

/** The download base: `baseUrl`, else $SCOUTKIT_SOLC_BINARIES, else the official list. */
export function compilersBaseUrl(baseUrl?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (baseUrl !== undefined) return baseUrl.replace(/\/+$/, '');
  const fromEnv = env['SCOUTKIT_SOLC_BINARIES'];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv.replace(/\/+$/, '') : SOLC_BINARIES;
}

/** A solc-js build an npm package ships: its version (the package's, e.g. 0.8.37) and its soljson.js. */
export interface PackagedCompiler {
  readonly version: string;
  readonly path: string;
}

const require = createRequire(import.meta.url);

/** The installed packages of `names` that ship a solc-js build (a package not installed is left out). */
export function packagedCompilers(names: readonly string[]): readonly PackagedCompiler[] {
  const found: PackagedCompiler[] = [];
  for (const name of names) {
    let manifest: string;
    try {
      manifest = require.resolve(`${name}/package.json`);
    } catch {
      continue;
    }
    const path = join(dirname(manifest), 'soljson.js');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown };
    if (typeof version === 'string' && /^\d+\.\d+\.\d+$/.test(version) && existsSync(path)) found.push({ version, path });
  }
  return found;
}

interface ListBuild {
  readonly path: string;
  readonly version: string;
  readonly longVersion: string;
  readonly sha256?: string;
  readonly keccak256?: string;
}

const isExecutable = (path: string): Promise<boolean> => access(path, constants.X_OK).then(() => true, () => false);

export class CompilerDirectory {
  readonly dir: string;
  private readonly options: CompilerDirectoryOptions;
  private readonly downloads = new Map<string, Promise<Compiler>>();
  private packaged: readonly PackagedCompiler[] | undefined;

  constructor(options: CompilerDirectoryOptions = {}) {
    this.dir = options.dir ?? defaultCompilersDir();
    this.options = options;
  }

  /** the installed packages' solc-js builds (resolved once) */
  get packages(): readonly PackagedCompiler[] {
    this.packaged ??= packagedCompilers(this.options.packages ?? ['solc']);
    return this.packaged;
  }

  /**
   * The compiler for a version: a native binary in the directory first, then a solc-js build
   * there, then an installed package's build of that version, then a download. A package is
   * known by its version only (its commit is the release's: a version asked with another commit
   * is caught after compiling, by the commit the compiler's metadata names).
   */
  async find(version: string): Promise<Compiler> {
    const parsed = parseCompilerVersion(version);
    if (parsed === null) throw new CompilerUnavailableError(`Invalid compiler version ${JSON.stringify(version)}: expected e.g. v0.8.26+commit.8a97fa7a`);
    const local = await this.lookup(parsed.semver, parsed.commit);
    if (local !== null) return local;
    const packaged = this.packages.find((p) => p.version === parsed.semver);
    if (packaged !== undefined) return { kind: 'soljson', path: packaged.path };
    if (this.options.download === false) throw this.missing(parsed.semver, parsed.commit, 'downloads are off');
    const key = `${parsed.semver}+${parsed.commit ?? ''}`;
    let pending = this.downloads.get(key);
    if (pending === undefined) {
      pending = this.download(parsed.semver, parsed.commit).finally(() => this.downloads.delete(key));
      this.downloads.set(key, pending);
    }
    return pending;
  }

  /**
   * The versions at hand: the directory's (solc-js builds and native binaries), as
   * `v0.8.26+commit.8a97fa7a` or `v0.8.26`, and the installed packages' (`v0.8.37`) unless the
   * directory has that version already; newest first.
   */
  async installed(): Promise<readonly string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const found = new Set<string>();
    for (const name of names) {
      const rest = name.startsWith('soljson-') && name.endsWith('.js') ? name.slice(8, -3) : name.startsWith('solc-') ? name.slice(5) : null;
      if (rest === null || parseCompilerVersion(rest) === null) continue;
      found.add(rest.startsWith('v') ? rest : `v${rest}`);
    }
    const semvers = new Set([...found].map((v) => parseCompilerVersion(v)?.semver));
    for (const p of this.packages) if (!semvers.has(p.version)) found.add(`v${p.version}`);
    const key = (v: string): number[] => (parseCompilerVersion(v)?.semver ?? '0.0.0').split('.').map(Number);
    return [...found].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
      return b.length - a.length;
    });
  }

  private async lookup(semver: string, commit: string | undefined): Promise<Compiler | null> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const long = commit === undefined ? null : `v${semver}+commit.${commit}`;
    const fits = (rest: string): boolean => rest === `v${semver}` || rest === semver || (long === null ? rest.startsWith(`v${semver}+commit.`) : rest === long);
    for (const name of names.sort()) {
      if (name.startsWith('solc-') && fits(name.slice(5)) && (await isExecutable(join(this.dir, name)))) return { kind: 'native', path: join(this.dir, name) };
    }
    for (const name of names.sort()) {
      if (name.startsWith('soljson-') && name.endsWith('.js') && fits(name.slice(8, -3))) return { kind: 'soljson', path: join(this.dir, name) };
    }
    return null;
  }

  private missing(semver: string, commit: string | undefined, why: string): CompilerUnavailableError {
    const file = commit === undefined ? `soljson-v${semver}+commit.<hash>.js` : `soljson-v${semver}+commit.${commit}.js`;
    const at = this.packages.map((p) => `v${p.version}`);
    const todo =
      `put ${file} (from ${SOLC_BINARIES}/ or npm's solc@${semver} soljson.js) or a native solc-${semver} in ${this.dir}` +
      (at.length > 0 ? `, or compile with ${at.join(', ')} (at hand without a download)` : '');
    return new CompilerUnavailableError(compilerUnavailableText(`v${semver}${commit === undefined ? '' : `+commit.${commit}`}`, why, todo));
  }

  private async download(semver: string, commit: string | undefined): Promise<Compiler> {
    const base = compilersBaseUrl(this.options.baseUrl);
    const get = async (url: string): Promise<Uint8Array> => {
      let res: Response;
      try {
        res = await (this.options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(this.options.downloadTimeoutMs ?? 60_000) });
      } catch (e) {
        const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : '';
        throw this.missing(semver, commit, `cannot reach ${url}${cause}`);
      }
      if (!res.ok) throw this.missing(semver, commit, `${url} answered ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    };
    let list: { builds?: readonly ListBuild[] };
    try {
      list = JSON.parse(new TextDecoder().decode(await get(`${base}/list.json`))) as { builds?: readonly ListBuild[] };
    } catch (e) {
      if (e instanceof CompilerUnavailableError) throw e;
      throw this.missing(semver, commit, `${base}/list.json is not JSON`);
    }
    const build = (list.builds ?? []).find((b) => b.version === semver && (commit === undefined || b.longVersion === `${semver}+commit.${commit}`));
    if (build === undefined) throw this.missing(semver, commit, `no such version in ${base}/list.json`);
    const bytes = await get(`${base}/${build.path}`);
    const sha = `0x${createHash('sha256').update(bytes).digest('hex')}`;
    if (build.sha256 !== undefined && build.sha256.toLowerCase() !== sha) throw this.missing(semver, commit, `${build.path}: sha256 ${sha} differs from the list's ${build.sha256}`);
    const kec = keccak256(bytes);
    if (build.keccak256 !== undefined && build.keccak256.toLowerCase() !== kec) throw this.missing(semver, commit, `${build.path}: keccak256 ${kec} differs from the list's ${build.keccak256}`);
    if (build.sha256 === undefined && build.keccak256 === undefined) throw this.missing(semver, commit, `${build.path} has no checksum in the list`);
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, `soljson-v${build.longVersion}.js`);
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
    return { kind: 'soljson', path };
  }
}
