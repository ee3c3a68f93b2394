/** Command-line values shared by several commands. */

/** A TCP port (0 picks a free one); `fallback` when the option is absent. */
export function parsePort(value: string | undefined, fallback = 3000): number {
  const port = Number(value ?? String(fallback));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port: ${value}`);
  return port;
}

/** `--metrics-path <path>`, `--no-metrics` and `--no-docs`: the server's own pages, for serve and demo. */
export const PAGE_FLAGS = {
  'metrics-path': { type: 'string' },
  'no-metrics': { type: 'boolean' },
  'no-docs': { type: 'boolean' },
} as const;

/** What the flags asked for; a key only when its flag was given. */
export interface PageFlags {
  /** the metrics path, or false for no metrics */
  readonly metricsPath?: string | false;
  /** false for no docs page */
  readonly docs?: false;
}

export function parsePageFlags(values: {
  readonly 'metrics-path'?: string;
  readonly 'no-metrics'?: boolean;
  readonly 'no-docs'?: boolean;
}): PageFlags {
  const docs = values['no-docs'] ? { docs: false as const } : {};
  const path = values['metrics-path'];
  if (values['no-metrics']) {
    if (path !== undefined) throw new Error('give --metrics-path or --no-metrics, not both');
    return { metricsPath: false, ...docs };
  }
  if (path === undefined) return docs;
  if (!path.startsWith('/') || path === '/') throw new Error(`--metrics-path: a path such as /metrics, got "${path}"`);
  return { metricsPath: path, ...docs };
}

/** The server's `metrics` and `docs` options from the parsed flags. */
export function pageOptions(flags: PageFlags): { readonly metrics?: { readonly path: string } | false; readonly docs?: false } {
  return {
    ...(flags.metricsPath === undefined ? {} : { metrics: flags.metricsPath === false ? false : { path: flags.metricsPath } }),
    ...(flags.docs === false ? { docs: false } : {}),
  };
}
