/**
 * Template-written everyday requests of work and personal life, as
 * negatives of the harmful-request model (issue 19, round 46): messages to a
 * boss, a colleague, a landlord or a neighbour; greetings, small talk and
 * goodbyes; questions about the assistant itself ("who are you", "tell me
 * about yourself"); advice, planning, cooking, travel, and health questions
 * asked for safety.
 *
 * Why: rounds 44 and 45 found that the words that block everyday requests
 * (`boss`, `yourself`, `polite`, greetings, identity questions) are nearly
 * absent from the benign chat rows of the corpora, so no weighting of those
 * rows reaches them; round 41's ordinary requests (ordinary-requests.ts) are
 * writing and task requests without the people, greetings and identity
 * questions of real chat.
 *
 * Written for this project from word lists of its own; no corpus text, and
 * the report fixture test/fixtures/harmful-ordinary-requests.jsonl was not
 * opened while writing them (a test checks none of its rows is generated
 * here). Sampling is by a seeded PRNG, so the rows are the same on every
 * run. They train as a source of their own (`synthetic:everyday-requests`,
 * ordinary prompts) and are left out in leave-one-source-out runs like any
 * source.
 */
import { combine } from '../augment';
import { fnv } from '../injection-data';
import { prng } from '../logistic';
import type { HarmfulRow } from './harmful-data';

/** The leave-one-source-out group of these rows. */
export const EVERYDAY_REQUESTS_GROUP = 'synthetic:everyday-requests';

const openers = ['', 'can you ', 'could you ', 'please ', 'hey, can you ', 'would you '];

const messageVerbs = [
  'write',
  'draft',
  'help me write',
  'help me draft',
  'write up',
  'put together',
];

const messageKinds = [
  'an email',
  'a short email',
  'a quick message',
  'a polite note',
  'a text',
  'a friendly email',
  'a formal letter',
  'a slack message',
];

const people = [
  'to my boss',
  'to my manager',
  'to my supervisor',
  'to a colleague',
  'to my coworker',
  'to my team',
  'to my landlord',
  'to my neighbour',
  'to my neighbor',
  "to my son's teacher",
  'to the school',
  'to my doctor',
  'to my mom',
  'to my best friend',
  'to a client',
  'to HR',
  'to my new boss',
  'to my old boss',
  'to my flatmate',
  'to the hotel',
];

const purposes = [
  'asking for a day off',
  'asking for Friday off',
  'asking to work from home tomorrow',
  'saying I will be late today',
  'saying I am sick and cannot come in',
  'asking for a raise',
  'thanking them for their help',
  'about the leaking tap in the kitchen',
  'asking to fix the heating',
  'about the noise at night',
  'to reschedule our meeting',
  'to follow up on my application',
  'to say happy birthday',
  'to apologise for missing the call',
  'inviting them to lunch',
  'about my vacation plans',
  'asking for feedback on my report',
  'to hand in my notice',
  'about a parcel that never arrived',
  'congratulating them on the new job',
  'asking for an extension on the deadline',
  'to introduce myself',
];

const tones = ['', '', ', keep it polite', ', short and friendly', ', not too formal', '.', '?'];

const editVerbs = [
  'make this email more polite',
  'make my message to my boss sound more polite',
  'make this sound friendlier',
  'make this reply less rude',
  'rewrite this so it sounds professional',
  'make my note to the landlord more polite',
  'soften the tone of this message to my colleague',
  'make this text to my boss shorter',
  'fix the grammar in my email to my manager',
  'make this more polite please',
  'rephrase this so my boss does not get upset',
  'make this sound less passive aggressive',
];

const editTails = ['', ':', '.', '?', ' before I send it', ' for me'];

const greetings = [
  'hi',
  'hello',
  'hey',
  'hi there',
  'hello there',
  'good morning',
  'good afternoon',
  'good evening',
  'hey there',
  'yo',
  'howdy',
  'greetings',
  'morning',
];

const greetingTails = [
  '',
  '!',
  '.',
  ', how are you?',
  ', how are you doing today?',
  "! what's up?",
  ', how is it going?',
  ', nice to meet you',
  ', are you there?',
  ', I have a question',
  ', can you help me?',
  ', how was your day?',
];

const farewells = [
  'goodbye',
  'bye',
  'bye for now',
  'see you later',
  'thanks, bye',
  'thank you so much',
  'thanks a lot',
  'good night',
  'talk to you tomorrow',
  'have a nice day',
  'cheers',
  'that is all for today',
  'ok thanks',
  'perfect, thank you',
];

const farewellTails = ['', '!', '.', ' :)', ', you were very helpful', ', have a good one'];

const identityQuestions = [
  'who are you',
  'what are you',
  'what is your name',
  "what's your name",
  'tell me about yourself',
  'tell me a little bit about yourself',
  'can you introduce yourself',
  'introduce yourself',
  'describe yourself',
  'tell me about you',
  'tell me your name',
  'are you a robot',
  'are you a human',
  'are you an AI',
  'who made you',
  'who created you',
  'what can you do',
  'what are you good at',
  'how do you work',
  'do you have feelings',
  'do you remember me',
  'how old are you',
  'where are you from',
  'what languages do you speak',
  'what should I call you',
  'do you have a name',
  'are you ChatGPT',
  'what model are you',
];

const identityTails = ['?', '', '.', ' please', ', in one sentence', ' briefly'];

const adviceOpeners = [
  'how do I ',
  'how should I ',
  'any tips on how to ',
  'what is the best way to ',
  'I need advice on how to ',
  'what would you say is a good way to ',
];

const adviceTopics = [
  'tell my boss I am overwhelmed',
  'ask my boss for a promotion',
  'say no to my manager politely',
  'deal with a difficult colleague',
  'talk to my landlord about a rent increase',
  'ask my neighbour to turn the music down',
  'make friends in a new city',
  'prepare for a job interview',
  'stay focused when working from home',
  'get better sleep',
  'save money on groceries',
  'start running as a beginner',
  'keep my houseplants alive',
  'apologise to a friend',
  'give feedback to my team',
  'ask for a refund',
  'organise my inbox',
  'be more confident in meetings',
  'explain a gap in my CV',
  'negotiate my salary',
  'help my kid with homework',
  'introduce myself to my new team',
  'write a thank-you card',
  'split chores with my flatmate',
];

const planOpeners = [
  'help me plan ',
  'can you plan ',
  'make a plan for ',
  'I want to organise ',
  'give me a schedule for ',
  'suggest ideas for ',
];

const plans = [
  'a weekend in Lisbon',
  'three days in Rome',
  'a road trip along the coast',
  'my week',
  'a birthday party for my daughter',
  'a team lunch',
  'a surprise dinner for my partner',
  'a move to a new flat',
  'a study schedule for my exams',
  'a picnic in the park',
  'a baby shower',
  'a farewell party for a colleague',
  'a day trip with two kids',
  'a camping trip',
  'my morning routine',
  'a budget for the month',
  'a date night at home',
  'a workout routine for beginners',
];

const cookingQuestions = [
  'how long should I boil an egg',
  'what can I cook with rice, eggs and spinach',
  'give me a recipe for banana bread',
  'how do I make pancakes without milk',
  'what is a quick dinner for two',
  'how do I cook salmon in the oven',
  'what goes well with roast chicken',
  'how do I make my soup less salty',
  'suggest a vegetarian lunch for work',
  'how long does cooked rice keep in the fridge',
  'how do I sharpen a kitchen knife',
  'what wine goes with pasta',
  'how do I make a simple tomato sauce',
  'how do I know when bread is done',
  'can I freeze leftover curry',
  'what should I bake for a bake sale',
];

const travelQuestions = [
  'what should I pack for a week in Norway',
  'do I need a visa to visit Japan',
  'what is the best time of year to visit Greece',
  'how do I get from the airport to the city centre',
  'what should I see in Paris in two days',
  'how early should I get to the airport',
  'is it cheaper to take the train or the bus to Berlin',
  'what are good things to do in Barcelona with kids',
  'how do I deal with jet lag',
  'can I bring a power bank on a plane',
  'what is a good tip for a taxi in New York',
  'what phrases should I learn before going to Italy',
];

const healthQuestions = [
  'is it safe to take ibuprofen with coffee',
  'what should I do if my child swallows a coin',
  'how do I know if a cut needs stitches',
  'is it safe to exercise with a cold',
  'what should I do for a bee sting',
  'how much water should I drink a day',
  'when should I see a doctor about a headache',
  'is it safe to eat eggs past the date on the box',
  'how do I treat a minor burn at home',
  'what are the signs of dehydration',
  'can I take paracetamol and ibuprofen together',
  'how do I keep my medicines away from the kids',
  'is it normal to feel tired after a vaccine',
  'what should be in a first aid kit',
  'how do I help someone who is choking',
  'is it safe to leave the heater on at night',
  'how do I check if my smoke alarm works',
  'what should I do if I feel dizzy at work',
];

const questionOpeners = ['', '', 'quick question: ', 'hi, ', 'sorry to bother you, ', 'I wonder '];

const questionTails = ['?', '?', '', '.', '? thanks'];

const smallTalk = [
  'how is your day going',
  'what do you think about the weather today',
  'do you like music',
  'what is your favourite book',
  'tell me something interesting',
  'tell me a joke',
  'I am bored, talk to me',
  'what should I watch tonight',
  'I had a long day at work',
  'my boss was in a good mood today',
  'I finally finished my project',
  'guess what, I got the job',
  'I am nervous about my interview tomorrow',
  'can we just chat for a bit',
  'what did you do today',
  'do you like cats or dogs',
];

const smallTalkTails = ['', '?', '!', '.', ' :)', ' lol'];

/** Everyday requests, deduplicated, sorted by id (deterministic for a seed). */
export function everydayRequestRows(seed = 46): HarmfulRow[] {
  const random = prng(seed);
  const texts = [
    ...combine(
      random,
      [openers, messageVerbs, [' '], messageKinds, [' '], people, [' '], purposes, tones],
      180,
    ),
    ...combine(random, [openers, editVerbs, editTails], 50),
    ...combine(random, [greetings, greetingTails], 70),
    ...combine(random, [farewells, farewellTails], 45),
    ...combine(random, [identityQuestions, identityTails], 80),
    ...combine(random, [adviceOpeners, adviceTopics, questionTails], 70),
    ...combine(random, [planOpeners, plans, questionTails], 50),
    ...combine(random, [questionOpeners, cookingQuestions, questionTails], 40),
    ...combine(random, [questionOpeners, travelQuestions, questionTails], 30),
    ...combine(random, [questionOpeners, healthQuestions, questionTails], 45),
    ...combine(random, [smallTalk, smallTalkTails], 45),
  ];
  const seen = new Set<string>();
  const rows: HarmfulRow[] = [];
  for (const text of texts) {
    if (seen.has(text)) continue;
    seen.add(text);
    rows.push({
      id: `everyday-${fnv(text).toString(16).padStart(8, '0')}`,
      text,
      label: 0,
      group: EVERYDAY_REQUESTS_GROUP,
      family: 'synthetic',
      kind: 'general',
    });
  }
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
