export {
  findInvisibleText,
  type InvisibleTextOptions,
  invisibleText,
} from './invisible-text/invisible-text';
export {
  allPiiEntities,
  type CustomPiiPattern,
  defaultPiiEntities,
  type FindPiiOptions,
  type PiiEntity,
  type PiiSpan,
  piiMaxMatchLength,
} from './pii/find-pii';
export { findPii } from './pii/find-pii-bundled';
export { type PiiOptions, pii } from './pii/pii';
export {
  type FindSecretsOptions,
  findSecrets,
  type SecretSpan,
  secretsMaxMatchLength,
} from './secrets/find-secrets';
export { isPlaceholderValue } from './secrets/placeholder';
export { type SecretsOptions, secrets } from './secrets/secrets';
export {
  isInvisibleCodePoint,
  type NormalizedText,
  type NormalizeTextOptions,
  normalizeText,
} from './shared/normalize-text';
export type { DetectedSpan } from './shared/spans';
