export {
  type ChainResult,
  DEFAULT_GUARDRAIL_TIMEOUT_MS,
  runCheckedChain as runChain,
} from './core/chain';
export {
  allow,
  block,
  type DefineGuardrailOptions,
  defineGuardrail,
  modify,
} from './core/define-guardrail';
export {
  GuardrailConfigError,
  type GuardrailConfigIssue,
  GuardrailTripwireError,
} from './core/errors';
export { optionsFingerprint } from './core/fingerprint';
export { mergeGuardrailOutcomes } from './core/outcome';
export type {
  StreamedBlock,
  StreamWatcher,
  StreamWatchingGuardrail,
  WatchResult,
} from './core/stream-watch';
export type {
  AllowVerdict,
  BlockVerdict,
  Guardrail,
  GuardrailCachePolicy,
  GuardrailContext,
  GuardrailEvent,
  GuardrailEventListener,
  GuardrailInputPart,
  GuardrailInputRole,
  GuardrailKind,
  GuardrailMetadata,
  GuardrailOutcome,
  GuardrailRecord,
  GuardrailRetryable,
  GuardrailSeverity,
  ModifyVerdict,
  Verdict,
} from './core/types';
export { BUILTIN_CONTENT_CATEGORIES } from './guards/content-filter/content-filter';
export * from './guards/data-protection';
export { type ExpressionOptions, expression } from './guards/expression/expression';
export { HARMFUL_CATEGORIES, type HarmfulCategory } from './guards/harmful-content/categories';
export {
  DEFAULT_HARMFUL_MAX_LENGTH,
  type HarmfulContentOptions,
  harmfulContent,
} from './guards/harmful-content/harmful-content';
export {
  CATEGORY_MIN_SCORE as HARMFUL_CATEGORY_MIN_SCORE,
  DEFAULT_HARMFUL_THRESHOLD,
  type HarmfulScore,
  scoreHarmful,
} from './guards/harmful-content/score-harmful';
export type { CircuitBreakerOptions } from './guards/llm-judge/circuit-breaker';
export {
  defaultJudgeTemplate,
  type JudgeTemplate,
  type JudgeTemplateInput,
} from './guards/llm-judge/judge-prompt';
export {
  type JudgeCacheOptions,
  JudgeRefusedError,
  type JudgeVerdict,
  judgeVerdictSchema,
  type LlmJudgeOptions,
  llmJudge,
} from './guards/llm-judge/llm-judge';
export { NerModelLoadError } from './guards/pii/ner/ner-model-loader';
export * from './guards/policy';
export { HarmfulModelLoadError } from './guards/prompt-injection/harmful-model-loader';
export { DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD } from './guards/prompt-injection/score-prompt-injection';
export { type RateLimitOptions, rateLimit } from './guards/rate-limit/rate-limit';
export {
  DEFAULT_TOOL_POISONING_THRESHOLD,
  scoreToolPoisoning,
  type ToolPoisoningOptions,
  type ToolPoisoningScore,
  toolPoisoning,
} from './guards/tool-poisoning/tool-poisoning';
export { DEFAULT_BLOCKED_MESSAGE } from './middleware/blocked-response';
export { getGuardrailOutcome, guardrailOutcomeOf } from './middleware/get-guardrail-outcome';
export type { StreamMode } from './middleware/guarded-stream';
export {
  type GuardrailsMiddleware,
  type GuardrailsOptions,
  guardrails,
  type LanguageModelV3CompatibleMiddleware,
  type MiddlewareSpecificationVersion,
} from './middleware/guardrails-middleware';
export type { InputScope } from './middleware/input-guard';
export { defaultRetryFeedback, type RetryOptions } from './middleware/retry';
export {
  type ApprovedToolDefinition,
  approveToolDefinition,
  forgetToolDefinitionPin,
  type PinToolDefinitionsOptions,
} from './middleware/tool-definition-pins';
export {
  type ToolDefinition,
  type ToolDefinitionText,
  type ToolDefinitionTripAction,
  toolDefinitionHash,
  toolDefinitionText,
} from './middleware/tool-definitions';
export { type MemoryStoreOptions, memoryStore } from './store/memory-store';
export type { CappedIncrement, Store } from './store/store';
export { StoreListError } from './store/store-list-error';
export * from './tools';
export type { UnreadableFiles } from './tools/model-output-check';
