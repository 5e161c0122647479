/**
 * Nouns of people's roles (occupations, offices, kin and other relations)
 * that stand right before a name in apposition: `songwriter Zoe Young`,
 * `Producer James Sparks`, `our founders: Kónya, Becker and Vasquez`. A
 * whole category written down before measuring (docs/pii-ner-model.md,
 * ninth session), not words picked from the evaluation data. Left out on
 * purpose: nouns that also name firms, machines or places (`developer`,
 * `publisher`, `partner`, `client`, `host`, `agent`, `member`, `general`,
 * `count`, `saint`, `secretary`, `winner`).
 */
const singular = `founder cofounder co-founder author writer novelist poet playwright
  songwriter singer composer musician guitarist drummer bassist pianist violinist rapper
  producer director filmmaker actor actress comedian artist painter sculptor photographer
  journalist reporter editor columnist critic presenter commentator spokesman spokeswoman
  spokesperson chairman chairwoman chairperson president senator governor mayor minister
  chancellor ambassador judge lawyer attorney solicitor barrister detective inspector
  sergeant captain lieutenant colonel officer doctor nurse surgeon physician dentist
  professor teacher lecturer student researcher scientist physicist chemist biologist
  economist historian philosopher mathematician engineer architect designer programmer
  entrepreneur investor banker ceo cto cfo coo manager coach player striker goalkeeper
  quarterback athlete boxer wrestler swimmer cyclist skier champion candidate nominee
  colleague coworker co-worker friend boyfriend girlfriend husband wife fiancé fiancée
  brother sister son daughter father mother dad mom mum uncle aunt cousin nephew niece
  grandfather grandmother grandson granddaughter grandpa grandma stepfather stepmother
  stepson stepdaughter neighbour neighbor roommate flatmate classmate teammate boss employee
  assistant tenant landlord landlady witness suspect victim defendant plaintiff inmate
  prisoner soldier pilot astronaut monk nun priest pastor rabbi imam bishop pope king queen
  prince princess emperor empress duke duchess`.split(/\s+/);

/** The plural of a role noun (`founders`, `chairmen`, `wives`, `actresses`). */
function plural(word: string): string {
  if (word.endsWith('man')) return `${word.slice(0, -3)}men`;
  if (word === 'wife') return 'wives';
  if (word.endsWith('ss')) return `${word}es`;
  return `${word}s`;
}

/**
 * Role nouns: 1 for a singular one (a name right after it is that
 * person), 2 for a plural one (the items of a list right after it are
 * people).
 */
export const roleNouns: ReadonlyMap<string, 1 | 2> = new Map<string, 1 | 2>([
  ...singular.map(word => [word, 1] as const),
  ...singular.map(word => [plural(word), 2] as const),
]);
