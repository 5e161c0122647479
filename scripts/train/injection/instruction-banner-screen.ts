/**
 * Screen of the instruction-banner signal (round 51 hA, issue 15; see
 * src/guards/prompt-injection/instruction-banner.ts and the model card;
 * made from round 50 hF's prior-override screen): how
 * many rows of every benign source carry it (the brief's rule: ≤ 0.5% of a
 * source's rows, ≤ 1 row under 200) and how many attack rows, per source;
 * with `--misses FILE` (a `--loso-scores` file), how many of each attack
 * source's left-out misses carry it. Counts only, no rows printed.
 *
 *   nice -n 10 npx tsx scripts/train/injection/instruction-banner-screen.ts [--misses FILE]
 */
import { hasInstructionBanner } from '../../../src/guards/prompt-injection/instruction-banner';
import { screenSignal } from './signal-screen';

screenSignal(hasInstructionBanner, [
  'test/fixtures/ordinary-chat.txt',
  'test/fixtures/r50-prior-override-ordinary.txt',
  'test/fixtures/r50-blind-first-turns.txt',
  'test/fixtures/instruction-disclosure-ordinary.txt',
  'test/fixtures/pretext-ordinary.txt',
]);
