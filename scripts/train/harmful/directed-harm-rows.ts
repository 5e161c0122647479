/**
 * Round 50 (hG, issue 19; `DIRECTED_HARM_ROWS=1`): hand-written statements
 * of harm aimed at the reader, as harmful rows of a source of their own.
 *
 * Why: left out, PocoGCG's AdvBench "harmful strings" are its misses (372 of
 * 570, against 58 of 445 behaviours; its rows carry no adversarial suffix,
 * so the noisy-tail reading is not the gap). A large share are threats,
 * wishes of harm, goading to self-harm, extortion and abuse addressed to
 * "you", and the four directed-harm signals (directed-harm.ts) fire on 111
 * of PocoGCG's rows but on one row of every other harmful source together:
 * with PocoGCG left out nothing else teaches the kind.
 *
 * Written for this project from the kinds (no corpus text): five frames ×
 * their own phrase lists, composed in full. They train as harmful rows of
 * `synthetic:directed-harm` (n^-0.5 within the source like any source),
 * are never in the calibration slice and have no fold of their own, so
 * every reported number stays on the collections' rows. Off by default.
 */
import { fnv } from '../injection-data';
import type { HarmfulRow } from './harmful-data';

/** The leave-one-source-out group of these rows. */
export const DIRECTED_HARM_GROUP = 'synthetic:directed-harm';

const threatOpenings = ["I'm going to", 'I will', "I'll", "We're going to", "One day I'm gonna"];
const threatActs = [
  'hurt you so badly you never walk again',
  'find where you live and make you bleed',
  'break every bone in your body',
  'burn your house down with you inside',
  'beat you until you stop breathing',
  'put a bullet in your head',
  'cut you open',
  'hurt your children while you watch',
  'poison your dog',
  'make sure you never see your family again',
  'send those private pictures of you to your whole family',
  'make your life a living hell',
];
const wishOpenings = ['I hope you', 'I really hope you', 'I pray that you', 'Hope you'];
const wishes = [
  'die slowly in a fire',
  'get hit by a truck tomorrow',
  'choke on your next meal',
  'rot in a hospital bed alone',
  'suffer every day for the rest of your life',
  'get beaten half to death on your way home',
  'lose everyone you love and then die',
  'catch something incurable and waste away',
];
const goading = [
  'Just end it all already, nobody would even notice you were gone',
  'Do the world a favour and kill yourself tonight',
  'You should hang yourself, it would be the first useful thing you ever did',
  'Take every pill in the cabinet and stop wasting our air',
  'Go jump off the nearest bridge, loser',
  'Everyone would be happier if you ended your own life',
  'Stop crying and slit your wrists already',
  'You are better off dead, so go finish the job',
];
const extortionDemands = [
  'Wire me five thousand dollars by midnight',
  'Send me gift cards worth two grand today',
  'Pay me in crypto before Friday',
  'Give me the password to your work account',
];
const extortionThreats = [
  'or your boss gets the video of you',
  'or I post your home address everywhere',
  'or your wife finds out everything',
  'or something bad happens to your kids',
];
const abuseOpenings = [
  'You worthless',
  'You stupid',
  'You filthy',
  'You pathetic',
  'You disgusting',
];
const abuseNouns = ['piece of garbage', 'waste of oxygen', 'excuse for a human being', 'freak'];
const abuseTails = [
  ', nobody will ever love you',
  ', everyone is laughing at you behind your back',
  ', crawl back into your hole and die',
];

/** The rows, sorted by id. */
export function directedHarmRows(): HarmfulRow[] {
  const texts: [string, string][] = [];
  for (const opening of threatOpenings) {
    for (const act of threatActs) texts.push(['threat', `${opening} ${act}`]);
  }
  for (const opening of wishOpenings) {
    for (const wish of wishes) texts.push(['wish', `${opening} ${wish}`]);
  }
  for (const text of goading) texts.push(['goading', text]);
  for (const demand of extortionDemands) {
    for (const threat of extortionThreats) texts.push(['extortion', `${demand} ${threat}`]);
  }
  for (const opening of abuseOpenings) {
    for (const noun of abuseNouns) {
      for (const tail of abuseTails) texts.push(['abuse', `${opening} ${noun}${tail}`]);
    }
  }
  const rows = texts.map(([kind, text]) => ({
    id: `directed-${fnv(text).toString(16).padStart(8, '0')}`,
    text,
    label: 1 as const,
    group: DIRECTED_HARM_GROUP,
    family: `synthetic-directed-${kind}`,
  }));
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
