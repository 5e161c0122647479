/**
 * The writing system a text is mostly in (by letter count). In a script
 * where one class has far more training weight than the other, the script
 * itself becomes evidence ("Thai ⇒ benign" when no Thai harmful request is
 * in training), which is what fails on a language the model has no harmful
 * rows for: the trainer can balance the classes per script, and the scorer
 * can judge non-Latin windows by the lexicon alone (concept-features.ts).
 */

/** Scripts told apart; `latin` includes every Latin-script language. */
export type Script =
  | 'latin'
  | 'greek'
  | 'cyrillic'
  | 'arabic'
  | 'devanagari'
  | 'bengali'
  | 'thai'
  | 'hangul'
  | 'japanese'
  | 'han'
  | 'other';

function scriptOf(code: number): Script | undefined {
  if (code < 0x80) return (code | 32) >= 97 && (code | 32) <= 122 ? 'latin' : undefined;
  if (code < 0x250 || (code >= 0x1e00 && code <= 0x1eff)) return 'latin';
  if (code >= 0x370 && code <= 0x3ff) return 'greek';
  if (code >= 0x400 && code <= 0x4ff) return 'cyrillic';
  if ((code >= 0x600 && code <= 0x6ff) || (code >= 0x750 && code <= 0x77f)) return 'arabic';
  if (code >= 0xfb50 && code <= 0xfeff) return 'arabic';
  if (code >= 0x900 && code <= 0x97f) return 'devanagari';
  if (code >= 0x980 && code <= 0x9ff) return 'bengali';
  if (code >= 0xe00 && code <= 0xe7f) return 'thai';
  if ((code >= 0xac00 && code <= 0xd7af) || (code >= 0x1100 && code <= 0x11ff)) return 'hangul';
  if (code >= 0x3130 && code <= 0x318f) return 'hangul';
  if (code >= 0x3040 && code <= 0x30ff) return 'japanese';
  if (code >= 0x4e00 && code <= 0x9fff) return 'han';
  if (code >= 0x2000 && code <= 0x33ff) return undefined;
  return code >= 0xd800 && code <= 0xdfff ? undefined : 'other';
}

/** The script with the most letters in `text[start, end)` (kana anywhere makes Han text Japanese); `latin` if none. */
export function dominantScript(text: string, start = 0, end = text.length): Script {
  const counts = new Map<Script, number>();
  for (let index = start; index < end; index++) {
    const script = scriptOf(text.charCodeAt(index));
    if (script !== undefined) counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  let best: Script = 'latin';
  let most = 0;
  for (const [script, count] of counts) {
    if (count > most) {
      best = script;
      most = count;
    }
  }
  if (best === 'han' && (counts.get('japanese') ?? 0) > 0) return 'japanese';
  return best;
}
