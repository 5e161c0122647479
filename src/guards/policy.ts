export {
  type ContentFilterOptions,
  contentFilter,
  DEFAULT_CONTENT_CATEGORIES,
} from './content-filter/content-filter';
export {
  type JsonSchemaObject,
  type OutputSchemaOptions,
  outputSchema,
} from './output-schema/output-schema';
export {
  DEFAULT_TOOL_DEFINITION_PROMPT_INJECTION_THRESHOLD,
  type PromptInjectionOptions,
  promptInjection,
} from './prompt-injection/prompt-injection';
export {
  DEFAULT_PROMPT_INJECTION_THRESHOLD,
  type PromptInjectionScore,
  type ScorePromptInjectionOptions,
  scorePromptInjection,
} from './prompt-injection/score-prompt-injection';
export {
  type SessionTokenBudget,
  type TokenBudgetOptions,
  tokenBudget,
} from './token-budget/token-budget';
export type { ToolArgumentRulePack } from './tool-policy/argument-rules';
export type { SqlDialectName } from './tool-policy/constant-condition';
export {
  type ToolArgsPredicate,
  type ToolPolicyOptions,
  toolPolicy,
} from './tool-policy/tool-policy';
export {
  type ResolveHost,
  type UrlFilterOptions,
  type UrlHostPattern,
  urlFilter,
} from './url-filter/url-filter';
