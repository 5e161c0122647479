/**
 * Template-written ordinary assistant requests, as negatives of the
 * harmful-request model (issue 19, round 41): e-mails and messages to write,
 * text to edit for tone, and everyday tasks (code and shell, cooking, travel,
 * study, care questions, stories, games, business).
 *
 * Why: the collections' benign rows are questions, code and commands; they
 * hold almost no "write an e-mail to …" or "make this more polite" request,
 * while the harmful collections hold many e-mail and message requests
 * (phishing, harassment, hoaxes). The model had learnt the words of writing
 * requests (`email`, `message`, `polite`, `help me`, `make`) as harmful
 * evidence and blocked "Can you make this email more polite?" (0.927).
 *
 * Written for this project; no corpus text. The report fixture
 * test/fixtures/harmful-ordinary-requests.jsonl is separate sentences, and a
 * test checks none of them is generated here. Sampling is by a seeded PRNG,
 * so the rows are the same on every run. They train as a source of their own
 * (`synthetic:ordinary-requests`, ordinary prompts) and are left out in
 * leave-one-source-out runs like any source.
 */
import { combine } from '../augment';
import { fnv } from '../injection-data';
import { prng } from '../logistic';
import type { HarmfulRow } from './harmful-data';

/** The leave-one-source-out group of these rows. */
export const ORDINARY_REQUESTS_GROUP = 'synthetic:ordinary-requests';

const askOpeners = [
  '',
  'can you ',
  'could you ',
  'please ',
  'would you ',
  'I need you to ',
  'quick favour: ',
  'hi! ',
];

const writeVerbs = ['write', 'draft', 'compose', 'put together', 'help me write', 'help me word'];

const documents = [
  ' an email',
  ' a short email',
  ' a quick e-mail',
  ' a message',
  ' a text',
  ' a note',
  ' a letter',
  ' a reply',
  ' a Slack message',
  ' a WhatsApp message',
  ' a LinkedIn message',
  ' a card',
];

const purposes = [
  ' to my manager about working from home on Fridays',
  ' to a customer explaining why their parcel is delayed',
  ' to my landlord about the heating not working',
  " to my son's school explaining his absence on Monday",
  ' to a recruiter turning down the offer',
  ' thanking my team for a great quarter',
  ' to my bank disputing a double charge',
  ' to a supplier asking for a better price',
  ' inviting the neighbours to a street party',
  ' asking the dentist to move my appointment',
  " to an old friend I haven't spoken to in years",
  ' apologising for missing the deadline',
  ' about the noise in our hotel room last night',
  ' asking my former teacher for a reference',
  ' asking for feedback on my presentation',
  " to my boss saying I'll be late tomorrow",
  ' welcoming a new hire to the team',
  ' to the parents about next week’s class trip',
  ' chasing an invoice that is still unpaid',
  ' congratulating a colleague on her promotion',
  ' to a client pushing the launch back a week',
  ' asking my coworkers to clean up the shared fridge',
  ' to the building manager about a parking problem',
  ' saying sorry to my partner for forgetting our anniversary',
  ' telling the team the office is closed on Monday',
  ' to a customer who left a bad review',
  ' to the insurance company about my claim',
  ' confirming the catering order for Saturday',
  ' asking a shop whether my order has shipped',
  ' to my mentor thanking her for her advice',
];

const writeTails = [
  '',
  ' in a warm tone',
  ', firm but polite',
  ' and keep it short',
  ' that sounds professional',
  ' with a friendly sign-off',
  ' in under 100 words',
  ', not too formal',
  ' that is kind but clear',
  ' in a calm tone',
];

const editVerbs = ['make ', 'can you make ', 'please make ', 'help me make ', 'could you make '];

const editObjects = [
  'this email',
  'my email',
  'the email',
  'this message',
  'my reply',
  'the message below',
  'this paragraph',
  'my intro',
  'this announcement',
  'my bio',
  'the letter',
  'this text',
  'my toast',
  'the invitation',
  'this note to my landlord',
  'my complaint',
];

const editQualities = [
  ' more polite',
  ' sound kinder',
  ' more persuasive',
  ' less formal',
  ' more upbeat',
  ' sound calmer',
  ' shorter',
  ' clearer',
  ' warmer',
  ' more assertive',
  ' less passive-aggressive',
  ' more cheerful',
  ' less stiff',
  ' more apologetic',
  ' more concise',
  ' more respectful',
  ' sound more confident',
  ' more diplomatic',
];

const rewriteVerbs = [
  'rewrite ',
  'edit ',
  'rework ',
  'polish ',
  'tidy up ',
  'reword ',
  'proofread ',
];

const rewriteTails = [
  ' so it sounds friendlier',
  ' so it reads better',
  ' to sound more confident',
  ' to be more respectful',
  ' for a formal audience',
  ' without changing the meaning',
  ' so it is less blunt',
  ' and fix any typos',
  ' so my boss takes it seriously',
  '',
];

const tasks = [
  'sort a list of dictionaries by a key in Python',
  'stop a script that is stuck in an infinite loop',
  'find which program is listening on a port on Windows',
  'write a cron job that backs up my home folder every night',
  'fix a merge conflict in git',
  'parse a CSV file in JavaScript',
  'end a frozen SSH session',
  'terminate a background job in bash',
  'explain what a race condition is',
  'speed up a slow SQL query',
  'make a pot of chili for eight people',
  'bake chocolate chip cookies without eggs',
  'store fresh herbs so they last longer',
  'cook rice in the microwave',
  'plan a weekend in Edinburgh on a budget',
  'find cheap flights to Athens in May',
  'get around Berlin without a car',
  'pack a carry-on for ten days',
  'treat a sprained ankle at home',
  'help my dad manage his diabetes diet',
  'tell whether a rash needs a doctor',
  'sleep better when working night shifts',
  'care for my grandmother after her hip surgery',
  'explain the Pythagorean theorem to my daughter',
  'revise for a biology exam in two weeks',
  'write a book report on To Kill a Mockingbird',
  'understand how interest rates affect inflation',
  'explain why the Berlin Wall fell',
  'write a ghost story for a campfire',
  'write a sword fight between two rival knights',
  'name the villain in my space opera',
  'write a poem about losing a friend',
  'win more games of Catan',
  'defeat the dragon boss in my tabletop campaign',
  'set up a fun escape room for a birthday',
  'price my freelance design work',
  'write a refund policy for my online shop',
  'prepare for a tough performance review',
  'run a productive weekly stand-up',
  'write a tagline for a coffee shop',
];

const taskOpeners = [
  'how do I ',
  'how can I ',
  'can you help me ',
  'please help me ',
  "what's the best way to ",
  'show me how to ',
  'I want to ',
  'help me ',
];

const endings = ['', '?', '.', '!', ' please', ', thanks'];

/** The rows (label 0, ordinary prompts), sorted by id. */
export function ordinaryRequestRows(seed = 41): HarmfulRow[] {
  const random = prng(seed);
  const texts = [
    ...combine(random, [askOpeners, writeVerbs, documents, purposes, writeTails, endings], 320),
    ...combine(random, [editVerbs, editObjects, editQualities, endings], 160),
    ...combine(random, [askOpeners, rewriteVerbs, editObjects, rewriteTails, endings], 100),
    ...combine(random, [taskOpeners, tasks, endings], 160),
  ];
  return texts
    .map(text => ({
      id: `ordreq-${fnv(text).toString(16).padStart(8, '0')}`,
      text,
      label: 0 as const,
      group: ORDINARY_REQUESTS_GROUP,
      family: 'synthetic',
      kind: 'general' as const,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
