/** Command-line values shared by several commands. */

/** A TCP port (0 picks a free one); `fallback` when the option is absent. */
export function parsePort(value: string | undefined, fallback = 3000): number {
  const port = Number(value ?? String(fallback));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port: ${value}`);
  return port;
}

/** `--metrics-path <path>` and `--no-metrics`, shared by serve and demo. */
export const METRICS_FLAGS = {
  'metrics-path': { type: 'string' },
  'no-metrics': { type: 'boolean' },
} as const;

/** `metricsPath` only when a flag was given: a path, or false for no metrics. */
export function parseMetricsFlags(values: { readonly 'metrics-path'?: string; readonly 'no-metrics'?: boolean }): {
  readonly metricsPath?: string | false;
} {
  const path = values['metrics-path'];
  if (values['no-metrics']) {
    if (path !== undefined) throw new Error('give --metrics-path or --no-metrics, not both');
    return { metricsPath: false };
  }
  if (path === undefined) return {};
  if (!path.startsWith('/') || path === '/') throw new Error(`--metrics-path: a path such as /metrics, got "${path}"`);
  return { metricsPath: path };
}

/** The server's `metrics` option from the parsed flags. */
export function metricsOption(metricsPath: string | false | undefined): { readonly metrics?: { readonly path: string } | false } {
  if (metricsPath === undefined) return {};
  return { metrics: metricsPath === false ? false : { path: metricsPath } };
}
