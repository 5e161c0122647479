export { formatPath } from './config-issues';
export {
  buildGuardrailsConfig,
  type ConfiguredGuardrails,
  type GuardrailFactory,
  type GuardrailsConfigSource,
  type LoadedGuardrailsConfig,
  type LoadGuardrailsConfigOptions,
  loadGuardrailsConfig,
  type ModelResolver,
} from './load-guardrails-config';
export {
  type BuiltinGuardrailType,
  builtinGuardrailTypes,
  type GuardrailConfigEntry,
  type GuardrailsConfig,
  guardrailsConfigSchema,
  guardrailTypeSchemas,
} from './schemas';
