export {
  type GuardrailBlockedOutput,
  hasGuardrailBlockedShape,
  isGuardrailBlocked,
} from './blocked-output';
export { collectToolRecords, type StepWithToolResults } from './collect-tool-records';
export {
  type GuardedTool,
  type GuardedToolSet,
  type GuardSingleToolOptions,
  type GuardToolOptions,
  type GuardToolsOptions,
  guardTool,
  guardTools,
  type ToolGuardrailCall,
} from './guard-tool';
export { guardrailTripped } from './guardrail-tripped';
