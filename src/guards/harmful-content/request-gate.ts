/**
 * The request gate (round 43, issue 19; a model-file option, off in the
 * shipped model): a text's opening request frame ("can you", "i need",
 * "help me", "how do i", an imperative task verb such as "write" or "make")
 * is read apart from the rest, and its words count only as far as the rest
 * carries harm evidence:
 *
 *     logit = bias + t + σ(t + offset) · r (+ the suffix features)
 *
 * where t is the model's weight of the words after the opening (the topic
 * part) and r that of the opening's own n-grams (the request part), both
 * scaled by 1/√n over all n-grams of the window, and `offset` is learned
 * with the weights. A request frame alone then cannot carry a text with no
 * harmful topic over the threshold, while it still adds to a harmful one.
 * The opening's n-grams are hashed again into the same buckets with their
 * own salt and marked by a one's complement (negative indices), so one
 * int8 weight table holds both parts.
 */

// An opening that asks the assistant to do something: a greeting, then a
// polite question ("can you", "could you please"), a need ("i need", "help
// me"), a how-to question, each optionally followed by a task verb ("can
// you make", "i need to write"), or an imperative task verb alone ("write",
// "give me"). Anchored and without nested quantifiers, so linear; read on
// folded (lower case) text.
const TASK_VERB =
  '(?:write|rewrite|make|create|draft|give|tell|explain|describe|summari[sz]e|list|suggest|show|generate|compose|translate|help|find|provide|plan|design|build|outline|recommend|edit|fix|improve|convert|turn|teach)\\b';
const requestOpening = new RegExp(
  `^\\s*(?:(?:hi|hello|hey)[,!.]?\\s+)?(?:please\\s+)?(?:(?:(?:can|could|would|will)\\s+(?:you|u)(?:\\s+please)?|i\\s+(?:need|want|would\\s+like)(?:\\s+you)?(?:\\s+to)?|help\\s+me(?:\\s+to)?|how\\s+(?:do|can|could|should|would)\\s+(?:i|you|we|one)|how\\s+to|what\\s+is\\s+the\\s+best\\s+way\\s+to)\\b(?:\\s+${TASK_VERB})?|${TASK_VERB})(?:\\s+me\\b)?`,
);

/** Longest text prefix read for an opening (every opening above is shorter). */
const OPENING_READ = 96;

/**
 * End (exclusive) of the request opening at the start of folded `text`,
 * or 0 when it opens with none. Reads at most `OPENING_READ` characters.
 */
export function requestOpeningEnd(text: string): number {
  const match = requestOpening.exec(
    text.length > OPENING_READ ? text.slice(0, OPENING_READ) : text,
  );
  return match === null ? 0 : match[0].length;
}

/** Bucket of a request-part n-gram: `index` hashed again with the gate's salt into `bits` bits. */
export function requestBucket(index: number, bits: number): number {
  return Math.imul((index ^ 0x5bd1e995) >>> 0, 0x9e3779b1) >>> (32 - bits);
}

/** Logistic sigmoid. */
export function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

/**
 * The gated logit's n-gram part, `t + σ(t + offset) · r`, of a window's
 * `features` (topic n-grams as bucket indices, request n-grams as one's
 * complements of theirs) under real-valued `weight(bucket)`, each n-gram
 * scaled by 1/√n over all of them.
 */
export function gatedSum(
  features: ArrayLike<number>,
  weight: (bucket: number) => number,
  offset: number,
): { topic: number; request: number; gate: number; sum: number } {
  let topic = 0;
  let request = 0;
  for (let index = 0; index < features.length; index++) {
    const feature = features[index]!;
    if (feature >= 0) topic += weight(feature);
    else request += weight(~feature);
  }
  const scale = features.length === 0 ? 0 : 1 / Math.sqrt(features.length);
  topic *= scale;
  request *= scale;
  const gate = sigmoid(topic + offset);
  return { topic, request, gate, sum: topic + gate * request };
}
