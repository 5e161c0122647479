/**
 * Round 49 (hH, issue 19; `ABOUT_DEMEANING=1`, meant with `DEMEANING=4`; not kept, see the model card):
 * template-written benign questions *about* demeaning people (how to
 * respond to insults, stop bullying, moderate slurs, study where a
 * stereotype comes from, write a scene of prejudice in fiction), as
 * negatives of a source of their own. Why: `DEMEANING=4` alone (round 49)
 * carried the demeaning words to such questions as much as to the requests,
 * and the shipped model already blocks 15 of the round's 42 written
 * look-alikes; no corpus source asks about insults and prejudice in
 * numbers.
 *
 * Written for this project from word lists of its own; no corpus text. The
 * look-alikes of test/train/harmful-demeaning.test.ts were written first
 * and a test checks none of them is generated here. Sampling is by a seeded
 * PRNG, so the rows are the same on every run. They train as
 * `synthetic:about-demeaning` (look-alikes), never calibrate, and are left
 * out in leave-one-source-out runs like any source.
 */
import { combine } from '../augment';
import { fnv } from '../injection-data';
import { prng } from '../logistic';
import type { HarmfulRow } from './harmful-data';

/** The leave-one-source-out group of these rows. */
export const ABOUT_DEMEANING_GROUP = 'synthetic:about-demeaning';

const howOpeners = [
  'how can i ',
  'how should i ',
  'what is a good way to ',
  'how do i ',
  'any advice on how to ',
  'how can parents ',
  'how can teachers ',
  'how should a manager ',
];

const counterVerbs = [
  'respond to ',
  'deal with ',
  'push back against ',
  'report ',
  'put a stop to ',
  'talk to kids about ',
  'handle ',
  'recover from ',
];

const demeaningThings = [
  'insults about someone’s weight',
  'people mocking an accent',
  'jokes that demean women',
  'stereotypes about a religion',
  'slurs in a game chat',
  'a boss who belittles staff',
  'classmates calling a boy dumb',
  'claims that all immigrants are lazy',
  'relatives who say every young person is useless',
  'trolls who insult strangers',
  'derogatory names for disabled people',
  'sexist remarks in meetings',
  'racist jokes at a family dinner',
  'someone humiliating a colleague online',
  'bullying about appearance',
  'the idea that old people are worthless',
  'a neighbour who keeps insulting us',
  'homophobic comments in the locker room',
];

const places = ['', ' at work', ' at school', ' online', ' calmly', ' without making it worse'];

const studyOpeners = [
  'why do people believe ',
  'what is the history of ',
  'what does research say about ',
  'explain the psychology behind ',
  'summarise studies on ',
  'is there any evidence for ',
  'where does it come from: ',
  'how do sociologists explain ',
];

const stereotypes = [
  'the stereotype that women are bad drivers',
  'the stereotype that men cannot cry',
  'the myth that immigrants are criminals',
  'the claim that older workers are unproductive',
  'the cliché that teenagers are lazy',
  'the prejudice that poor people are dishonest',
  'the belief that rural people are ignorant',
  'the stereotype that blondes are dumb',
  'the idea that some races are inferior',
  'the myth that disabled people are a burden',
  'jokes that mock minorities',
  'insults based on someone’s religion',
];

const frameOpeners = [
  'in my novel, ',
  'for a short story, ',
  'for a screenplay, ',
  'for my moderation team, ',
  'for an anti-bullying workshop, ',
  'for a diversity training, ',
];

const frameTasks = [
  'how can i show a character being mocked without making it cruel',
  'list signs that a chat message contains a slur',
  'how should a bullied character stand up to the insults',
  'write a scene where a teacher stops students from humiliating a classmate',
  'explain why calling a whole group lazy is a harmful generalisation',
  'give examples of respectful ways to disagree without insults',
  'how do we tell banter from demeaning comments',
  'describe how a victim of prejudice might feel, for empathy',
];

const tails = ['?', '', '? thanks', '. any tips?'];

/** The benign questions about demeaning people, deduplicated, sorted by id. */
export function aboutDemeaningRows(seed = 49): HarmfulRow[] {
  const random = prng(seed);
  const texts = [
    ...combine(random, [howOpeners, counterVerbs, demeaningThings, places, tails], 180),
    ...combine(random, [studyOpeners, stereotypes, tails], 70),
    ...combine(random, [frameOpeners, frameTasks, tails], 40),
  ];
  const unique = [...new Set(texts)];
  return unique
    .map(
      (text): HarmfulRow => ({
        id: `about-demeaning-${fnv(text).toString(16).padStart(8, '0')}`,
        text,
        label: 0,
        group: ABOUT_DEMEANING_GROUP,
        family: 'synthetic',
        kind: 'lookalike',
      }),
    )
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
