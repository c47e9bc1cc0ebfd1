// @odds-data-service/client: the typed client of the odds data service (README.md).
export { OddsClient, type ApiResult, type BodyOf, type DataOf, type EnvelopeOf, type OddsClientOptions, type QueryOf } from './client';
export { OddsApiError, type ErrorBody, type OddsErrorCode } from './errors';
export { rateLimitOf, type RateLimit } from './rate-limit';
export { connectLive, LiveError, type LiveEvents, type LiveFeed, type LiveOptions, type LiveStatus } from './live/connect';
export {
  LIVE_STATUSES,
  liveStateOf,
  quoteKey,
  LiveBook,
  type DeltaVerdict,
  type LiveChange,
  type LiveDeltaPayload,
  type LiveFilter,
  type LiveGame,
  type LiveQuote,
  type LiveSnapshotPayload,
  type LiveState,
} from './live/state';
export type { components, operations, paths } from './api-types';
