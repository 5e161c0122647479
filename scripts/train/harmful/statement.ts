/**
 * Statement rewrites for training (augmentation), applied alike to harmful
 * and benign prompts: the asked-for action of a request ("poison my
 * neighbour's dog" of "How can I poison my neighbour's dog?") becomes a
 * first- or second-person statement of intent or an exhortation ("I am
 * going to poison my neighbour's dog.", "You should poison your
 * neighbour's dog."). The training data is nearly all requests, so harmful
 * text that states or urges rather than asks (threats, incitement, things a
 * model should not say) shares little with it; and second-person wording is
 * common only among benign prompts. Benign prompts get the same frames, so
 * the frame and the person carry no evidence either way; what is stated
 * decides. Written for this project from general knowledge of English
 * grammar, not taken from any corpus row.
 *
 * Deterministic: at most one rewrite per row, the frame picked by a hash of
 * the row's id. Only English-looking openings match (compose.ts's).
 */
import { fnv } from '../injection-data';
import { requestAction } from './compose';

/** First person → second person, word by word (for exhortations to "you"). */
const toSecond: Record<string, string> = {
  i: 'you',
  me: 'you',
  my: 'your',
  mine: 'yours',
  myself: 'yourself',
  we: 'you',
  us: 'you',
  our: 'your',
  ours: 'yours',
  ourselves: 'yourselves',
  "i'm": "you're",
  am: 'are',
};

function secondPerson(action: string): string {
  return action.replace(/[\p{L}']+/gu, word => toSecond[word.toLowerCase()] ?? word);
}

const frames = [
  (action: string) => `I am going to ${action}.`,
  (action: string) => `I will ${action} tonight.`,
  (action: string) => `You should ${secondPerson(action)}.`,
  (action: string) => `You need to ${secondPerson(action)} right now.`,
  (action: string) => `We are going to ${action}, and nobody will stop us.`,
  (action: string) => `Go and ${secondPerson(action)}.`,
] as const;

/** The statement rewrite of `text` in the frame picked for `id`, or undefined. */
export function rephraseStatement(id: string, text: string): string | undefined {
  const action = requestAction(text);
  if (action === undefined) return undefined;
  const frame = frames[fnv(`harmful-statement:${id}`) % frames.length]!;
  return frame(action);
}
