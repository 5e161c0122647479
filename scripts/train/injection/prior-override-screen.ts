/**
 * Screen of the prior-override signal (round 50 hF, issue 15; see
 * src/guards/prompt-injection/prior-override.ts and the model card): how
 * many rows of every benign source carry it (the brief's rule: ≤ 0.5% of a
 * source's rows, ≤ 1 row under 200) and how many attack rows, per source;
 * with `--misses FILE` (a `--loso-scores` file), how many of each attack
 * source's left-out misses carry it. Counts only, no rows printed.
 *
 *   nice -n 10 npx tsx scripts/train/injection/prior-override-screen.ts [--misses FILE]
 */
import { hasPriorOverride } from '../../../src/guards/prompt-injection/prior-override';
import { screenSignal } from './signal-screen';

screenSignal(hasPriorOverride, [
  'test/fixtures/ordinary-chat.txt',
  'test/fixtures/r50-prior-override-ordinary.txt',
]);
