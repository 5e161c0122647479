import { decodeSegments } from './decode-segments';
import { foldText } from './fold-text';
import { hiddenCommentInstruction, injectionSignals } from './signals';

/** What the phrase signals found in a text. */
export interface PhraseScore {
  /** 0..1, the noisy-or of the weights of the signals that fired. */
  score: number;
  /** Ids of the signals that fired; decoded ones as `base64:<id>` etc. */
  signals: string[];
}

const imperativeVerbs =
  'include|add|append|prepend|insert|incorporate|integrate|embed|mention|replace|rewrite|translate|encode|convert|write|compose|respond|reply|answer|tell|describe|explain|summari[sz]e|provide|list|give|generate|create|recommend|suggest|ensure|make sure|use|start|begin|end|conclude|break down|analy[sz]e|spell|reverse|send|forward|delete|remove|change|modify|format|emphasi[sz]e|highlight|urge|advise|inform|promote|direct|offer|share|ask|output|print|display|reveal|present|discuss|compare|calculate|evaluate|identify|express|state|remind|warn|refer|redirect|invite|encourage|instruct|substitute|apply|transform|shorten|expand|capitali[sz]e';
// A short standalone line that opens with an imperative verb and ends a
// sentence: in data, an instruction to whoever reads it.
const imperativeLine = new RegExp(
  `^(?:please )?(?:${imperativeVerbs})\\b[^\\n]{8,240}[.!?:]$`,
  'mu',
);
const tagCharacters = /[\u{E0000}-\u{E007F}]/u;

/** True when an HTML comment holds instruction words (each character read once). */
export function hasInstructionInComment(text: string): boolean {
  let cursor = text.indexOf('<!--');
  while (cursor >= 0) {
    const close = text.indexOf('-->', cursor + 4);
    const body = text.slice(cursor + 4, close < 0 ? text.length : close);
    if (hiddenCommentInstruction.test(body)) return true;
    if (close < 0) return false;
    cursor = text.indexOf('<!--', close + 3);
  }
  return false;
}

function combine(weights: number[]): number {
  let miss = 1;
  for (const weight of weights) miss *= 1 - weight;
  return Math.round((1 - miss) * 1000) / 1000;
}

function matchSignals(
  folded: string,
  mode: 'direct' | 'indirect',
  prefix: string,
  signals: string[],
  weights: number[],
) {
  for (const signal of injectionSignals) {
    if (signal.mode === 'indirect' && mode !== 'indirect') continue;
    if (!signal.pattern.test(folded)) continue;
    const id = prefix + signal.id;
    if (signals.includes(id)) continue;
    signals.push(id);
    weights.push(signal.weight);
  }
}

/**
 * The phrase detector: hand-written patterns (signals.ts) over the folded
 * text and every decoded segment, weights combined as a noisy-or. It judges
 * tool results and documents (`mode: 'indirect'`), where it holds up on
 * sources it was never tuned on (docs/prompt-injection-model.md); the whole
 * text is read (each pattern is linear), and every encoded run. `folded` is
 * `foldText(text)` when the caller has it already.
 */
export function phraseScore(
  text: string,
  mode: 'direct' | 'indirect',
  folded: string = foldText(text),
): PhraseScore {
  const signals: string[] = [];
  const weights: number[] = [];
  matchSignals(folded, mode, '', signals, weights);

  for (const segment of decodeSegments(text)) {
    const before = signals.length;
    matchSignals(foldText(segment.text), mode, `${segment.encoding}:`, signals, weights);
    // Hiding an instruction in an encoding is itself a sign of intent.
    if (signals.length > before && !signals.includes('encoded-instruction')) {
      signals.push('encoded-instruction');
      weights.push(0.5);
    }
  }

  if (tagCharacters.test(text)) {
    signals.push('invisible-tag-characters');
    weights.push(mode === 'indirect' ? 0.8 : 0.5);
  }
  if (mode === 'indirect' && hasInstructionInComment(folded)) {
    signals.push('hidden-comment-instruction');
    weights.push(0.6);
  }
  if (mode === 'indirect' && imperativeLine.test(folded)) {
    signals.push('imperative-line');
    weights.push(0.45);
  }
  return { score: combine(weights), signals };
}

/**
 * Phrase score at or above which `promptInjection()` blocks a tool result or
 * document by default (`mode: 'indirect'`): the operating point at which the
 * phrase detector generalised to unseen tool-output sources.
 */
export const DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD = 0.45;
