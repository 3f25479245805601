/** The public API. What this file does not export is internal. */
export { retrieve } from './orchestrator/loop.js';
export { createRetriever } from './orchestrator/retriever.js';
export type { Retriever } from './orchestrator/retriever.js';
export { trace } from './orchestrator/call-trace.js';
export { locate } from './orchestrator/locate.js';
export type { RetrieveOptions, ProviderName, RootSpec, SearchOptions, TraceOptions, LocateOptions } from './core/options.js';
export type {
  RetrieveResult,
  FileResult,
  CandidateResult,
  Region,
  CycleTrace,
  Usage,
  ProgressEvent,
  FallbackReason,
  RootResult,
  TraceResult,
  TraceNode,
  LocateResult,
  LocateCandidate,
  LocatedFrame,
  StackFrame,
  FrameFormat,
  ErrorReport,
} from './core/types.js';
export type { Logger } from './core/log.js';
export { CtxloopError, UsageError, SearchError, ProviderError, CacheError, isCtxloopError } from './core/errors.js';
export type { ErrorCode } from './core/errors.js';
