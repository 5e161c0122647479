/**
 * Request-framed benign rows weighted up (round 42, issue 19).
 *
 * The harmful rows are almost all short requests ("Write …", "Can you …",
 * "How do I …"); most benign weight is not (CLI descriptions, reading
 * questions, maths problems, long role-play set-ups), so the request frame
 * itself becomes evidence of harm and a short everyday request with no harm
 * topic scores high. Weighting up the benign rows that are requests in the
 * same frame (found by their opening, whatever their source) makes the frame
 * words weigh the same on both sides, so what is asked about has to decide.
 * Rule-based on the row's own text: a left-out source's rows stay out as
 * before, and the calibration slice is unchanged.
 */
import type { HarmfulRow } from './harmful-data';

/** Longest request (characters) that counts: the harmful requests are short. */
export const REQUEST_MAX_LENGTH = 400;

// An opening that asks the assistant to do something: a polite question
// ("can you", "could you please"), a need ("I need", "help me"), a how-to
// question, or an imperative verb of an assistant task. Linear: anchored, no
// nested quantifiers.
const requestOpening =
  /^\s*(?:(?:hi|hello|hey)[,!.]?\s+)?(?:please\s+)?(?:(?:can|could|would|will)\s+(?:you|u)\b|(?:i\s+(?:need|want|would\s+like)|help\s+me|how\s+(?:do|can|could|should|would)\s+(?:i|you|we|one)|how\s+to|what\s+is\s+the\s+best\s+way\s+to)\b|(?:write|rewrite|make|create|draft|give|tell|explain|describe|summari[sz]e|list|suggest|show|generate|compose|translate|help|find|provide|plan|design|build|outline|recommend|edit|fix|improve|convert|turn|teach)\b)/i;

/** True when `text` is a short request in the frame harmful requests use. */
export function isRequestFramed(text: string): boolean {
  return text.length <= REQUEST_MAX_LENGTH && requestOpening.test(text);
}

const framed = new WeakMap<HarmfulRow, boolean>();

/** isRequestFramed of a row's text, computed once per row. */
function rowIsRequest(row: HarmfulRow): boolean {
  let request = framed.get(row);
  if (request === undefined) {
    request = isRequestFramed(row.text);
    framed.set(row, request);
  }
  return request;
}

/**
 * The factor that brings the benign request-framed share of weight `benign`
 * to the harmful one `harmful` (both in 0..1), raised to `strength`: the
 * odds ratio of the two shares (1 when the benign share is already as high,
 * or either share is 0 or 1).
 */
export function requestFactor(harmful: number, benign: number, strength: number): number {
  if (benign <= 0 || benign >= 1 || harmful <= 0 || harmful >= 1 || benign >= harmful) return 1;
  return ((harmful * (1 - benign)) / (benign * (1 - harmful))) ** strength;
}

/**
 * Multiplies, in place, the weight of every benign request-framed row among
 * `selected` by `requestFactor` of the two classes' request shares there, so
 * the request frame weighs about the same in both classes. Returns the factor.
 */
export function balanceRequests(
  rows: readonly HarmfulRow[],
  selected: readonly number[],
  weights: Float64Array,
  strength: number,
): number {
  const total = [0, 0];
  const requests = [0, 0];
  for (const index of selected) {
    const row = rows[index]!;
    total[row.label]! += weights[index]!;
    if (rowIsRequest(row)) requests[row.label]! += weights[index]!;
  }
  const factor = requestFactor(requests[1]! / total[1]!, requests[0]! / total[0]!, strength);
  if (factor === 1) return factor;
  for (const index of selected) {
    const row = rows[index]!;
    if (row.label === 0 && rowIsRequest(row)) weights[index]! *= factor;
  }
  return factor;
}
