export { type ChainResult, runChain } from './core/chain';
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
export type {
  AllowVerdict,
  BlockVerdict,
  Guardrail,
  GuardrailContext,
  GuardrailEvent,
  GuardrailEventListener,
  GuardrailKind,
  GuardrailMetadata,
  GuardrailOutcome,
  GuardrailRecord,
  GuardrailSeverity,
  ModifyVerdict,
  Verdict,
} from './core/types';
export { type MemoryStoreOptions, memoryStore } from './store/memory-store';
export type { Store } from './store/store';
