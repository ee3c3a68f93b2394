/** scoutkit/host — the Koa host: middleware for any Koa app, a standalone server, limits. */
export { explorerMiddleware, renderErrors } from './middleware.ts';
export type { ExplorerMiddleware, ExplorerMiddlewareOptions } from './middleware.ts';
export { refuseUpgrade, upgradeRequest } from './upgrade.ts';
export type { UpgradeVerdict } from './upgrade.ts';
export type { SocketOptions, SocketServer } from './socket.ts';
export { createServer } from './server.ts';
export { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, CORS_EXPOSE_HEADERS, corsMiddleware, parseCorsOrigins } from './cors.ts';
export type { CorsOptions } from './cors.ts';
export { DEFAULT_COMPRESS_THRESHOLD } from './compress.ts';
export type { CompressEvent, CompressOptions } from './compress.ts';
export type { RequestLogLine, ScoutkitServer, ServerDocsOptions, ServerMetricsOptions, ServerOptions } from './server.ts';
export { createMetrics } from './metrics.ts';
export type { ExplorerMetrics, MetricsOptions, SocketDropReason, SocketMetrics } from './metrics.ts';
export { docsPage } from './docs.ts';
export type { DocsPageOptions } from './docs.ts';
export { createKeyRing, requestKey } from './identity.ts';
export type { IdentityOptions, KeyRing, KeySet } from './identity.ts';
export { DEFAULT_LIMITER_TIMEOUT_MS, LIMIT_HEADERS, LIMITER_BUSY_MESSAGE, memoryLimiterStore } from './limits.ts';
export type { ConsumeRequest, ConsumeResult, LimiterStore, LimitWindow, RateLimitOptions } from './limits.ts';
export { connectRedisLimiterStore, RECONNECT_MAX_MS, redisLimiterClient, redisLimiterStore } from './limiter-redis.ts';
export type { RedisLimiterOptions } from './limiter-redis.ts';
export {
  ANONYMOUS_PLAN,
  FREE_PLAN,
  KeysFileError,
  LOCAL_PLAN,
  loadKeysFile,
  MAX_WINDOW_SECONDS,
  parseKeysConfig,
  planWindow,
} from './plans.ts';
export type { KeyGrant, KeysConfig, Plan, PlanRate } from './plans.ts';
export { openStore, StoreUrlError } from './stores.ts';
export type { OpenedStore, OpenStoreOptions } from './stores.ts';
export { requestInfo } from './request.ts';
export type { HeaderSink, HostRequest, Identity, RequestInfo, Step } from './request.ts';
export { loadArtifacts } from './artifacts.ts';
export type { LoadedArtifacts } from './artifacts.ts';
