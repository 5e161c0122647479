import type { FindSecretsOptions } from './find-secrets';
import { providerRules } from './provider-rules';

/**
 * The types `findSecrets` (and `secrets()`) reports without a provider rule:
 * what the assignment scans (`password = ...`, a Kubernetes Secret's `data`)
 * and the entropy detector find. Kept beside the rules' own types so that the
 * eval command can tell a type this configuration looks for from one it
 * never reports (recall 0 by construction).
 */
const assignmentTypes = ['GENERIC_SECRET', 'KUBERNETES_SECRET'] as const;
const entropyTypes = ['HIGH_ENTROPY_STRING'] as const;

/**
 * The span types `findSecrets(text, options)` can report: every provider
 * rule's type, the assignment types unless `assignments: false`, and
 * `HIGH_ENTROPY_STRING` unless `entropy: false`.
 */
export function secretTypesFor({
  assignments = true,
  entropy = true,
}: FindSecretsOptions = {}): ReadonlySet<string> {
  const types = new Set<string>(providerRules.map(rule => rule.type));
  if (assignments) for (const type of assignmentTypes) types.add(type);
  if (entropy) for (const type of entropyTypes) types.add(type);
  return types;
}
