/** scoutkit core — the public entry of lib/. */
export type {
  ApiForm,
  ApiVersion,
  EndpointName,
  EndpointRequest,
  EtherscanRequest,
  Explorer,
  ExplorerOptions,
  ExplorerRequest,
  ExplorerResponse,
  FailedRequest,
  HttpMethod,
  RawQuery,
  RequestBody,
  Route,
  RpcRequest,
  ServiceName,
  UploadedFile,
} from './api.ts';
export { chainConfigs, toChainConfig } from './chain-config.ts';
export type { ChainConfig, ChainSetting } from './chain-config.ts';
export { codeHashOf } from './contracts/codeHash.ts';
export { CONTRACT_LANGUAGES, LICENSE_TYPES } from './contracts/records.ts';
export type { CodeFormat, ContractLanguage, JobInputKind, JobState, LicenseType, MatchKind, VerificationJob, VerifiedContract, VerifiedContractInput } from './contracts/records.ts';
export { InvalidVerifiedContractError, NoContractStoreError, saveVerifiedContract, verifiedContractOf } from './contracts/save.ts';
export type { SaveVerifiedInput } from './contracts/save.ts';
export type { ContractChange, ContractChangeListener, ContractFeed, ContractStore, JobOutcome, NewJob, SaveOutcome, VerifiedFilter, VerifiedPage } from './contracts/store.ts';
export { STATUS_WAIT_MS, submitVerification, VERIFICATION_TEXT, verificationStatus } from './contracts/submit.ts';
export type { JobStatus, StatusOptions, Submission, SubmitOptions, SubmitOutcome } from './contracts/submit.ts';
export type { ContractVerifier, VerificationOutcome, VerificationJob as VerificationTask } from './contracts/verifier.ts';
export { ArtifactsError, artifactSet, contractsOfBuildInfo } from './contracts/artifacts.ts';
export type { ArtifactContract, ArtifactSet, BuildInfoContracts, BuildInfoFormat } from './contracts/artifacts.ts';
export { licenseTypeOf } from './contracts/license.ts';
export { verifyContract } from './contracts/verifyContract.ts';
export type { CodeMatcher, MatchOutcome, VerifyContractResult } from './contracts/verifyContract.ts';
export { watchContracts } from './contracts/watch.ts';
export type { ContractWatcher, ContractWatcherOptions } from './contracts/watch.ts';
export { classifyPath } from './classify.ts';
export type { PathClass } from './classify.ts';
export { defineEndpoint, erased } from './endpoints/endpoint.ts';
export type { AnyEndpoint, BodySpec, Endpoint, EndpointDeps, EndpointInput } from './endpoints/endpoint.ts';
export { jsonBody } from './params/body.ts';
export { RPC_ENDPOINT, CONFIG_ENDPOINT, ETHERSCAN_ENDPOINT } from './api.ts';
export { ETHERSCAN_ACTIONS, ETHERSCAN_PATH, LEGACY_PATHS, parseEtherscanPath } from './etherscan/index.ts';
export type { EtherscanAction, EtherscanAnswer, EtherscanContext, EtherscanPath, EtherscanQuery } from './etherscan/index.ts';
export { RPC_METHODS } from './rpc/index.ts';
export type { RpcContext, RpcMethod, RpcNode } from './rpc/index.ts';
export type { RpcCall, RpcErrorObject, RpcOutcome, RpcResponse } from './rpc/protocol.ts';
export { MAX_BATCH_SIZE, RPC_CODES, callCount, parseJson } from './rpc/protocol.ts';
export { MAX_LOG_BLOCK_RANGE, MAX_LOG_RESULTS, MAX_LOG_TRANSACTIONS } from './rpc/store.ts';
export { gatewayConfig } from './gateway/config.ts';
export { CONFIG_PATH, INSTANCE_RPC_PATH, MULTICHAIN_RPC_PATH } from './paths.ts';
export type { GatewayConfig, GatewayConfigOptions } from './gateway/config.ts';
export { createExplorer, DEFAULT_IPFS_GATEWAY } from './explorer.ts';
export { isCachedResponse } from './cache.ts';
export { call, explorerClient } from './client.ts';
export type {
  ClientAnswer,
  ClientBody,
  ClientErrorBody,
  ClientFailure,
  ClientPath,
  ClientQuery,
  ClientQueryInput,
  ClientStream,
  ClientSuccess,
  ExplorerClient,
  NextPageParams,
  PageValue,
} from './client.ts';
// the branded hex kinds: the records' `Address`, `Hash` and `Hex` (domain/hex.ts), and the two
// kinds of hash the public surface tells apart (hashes.ts)
export type { Address, BlockHash, TransactionHash } from './hashes.ts';
export type { Hash, Hex } from './domain/hex.ts';
export { address, addressOrNull, EMPTY_HEX, hash, hashOrNull, hex, hexOrNull, ZERO_ADDRESS, ZERO_HASH } from './domain/hex.ts';
export { asAddress, asBlockHash, asTransactionHash, isAddress, isBlockHash, isTransactionHash } from './hashes.ts';
export type { CreateExplorerOptions } from './explorer.ts';
export { ROUTES, API_PREFIX, allowHeader, matchRoute, parsePath, routeMatcher } from './routes.ts';
export type { MethodRoute, RouteMatch, RouteMatcher } from './routes.ts';
export { MULTICHAIN_TAG, openApiDocument, OPENAPI_PATH, readStoreExamples } from './openapi/index.ts';
export type { OpenApiOptions, StoreExamples } from './openapi/index.ts';
export type { ApiError, ParamError } from './errors.ts';
export { errorResponse, RATE_LIMITED_MESSAGE } from './errors.ts';
export { toJson } from './json.ts';
export type { JsonValue, JsonObject } from './json.ts';
export type * from './ports.ts';
export type * from './domain/records.ts';
export { TOKEN_TYPES, NFT_TOKEN_TYPES, TRANSACTION_KINDS } from './domain/records.ts';
export * as ingest from './ingest/derive.ts';
export { InvalidWriteError, validateBundle, validatePending } from './sink/validate.ts';
export { StoreUnavailableError } from './sink/unavailable.ts';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging/page.ts';
export { ENDPOINTS, ENDPOINT_NAMES } from './endpoints/index.ts';
export type { Change, ChangeFeed, ChangeListener, ChangeNotice } from './feed/change.ts';
export { changeOfBundles, createLocalFeed } from './feed/change.ts';
export { describeNotice } from './feed/describe.ts';
export type { BlockBroadcast, EventOptions, LiveEvent } from './live/events.ts';
export { eventsOfChange } from './live/events.ts';
export type { LiveHub } from './live/hub.ts';
export { createLiveHub } from './live/hub.ts';
export { parseTopic, TOPICS } from './live/topics.ts';
export type { Topic, TopicError } from './live/topics.ts';
export type { LiveExplorer } from './explorer.ts';
