import { findPii } from '../pii/find-pii';
import { findSecrets } from '../secrets/find-secrets';

/** What a record, reason or error shows for a tool-call id it may not show. */
export const HIDDEN_TOOL_CALL_ID = '#hidden-id';

const SAFE_ID_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A tool-call id as records (`toolCallId`), reasons and error messages show
 * it. The client writes the ids of its history's tool calls and results, and
 * the model those of its calls (round 24: a card number as a history call's
 * id reached records and errors unjudged). An id is shown when it has the
 * shape ids have (`[A-Za-z0-9_-]{1,64}`) and `findPii` and `findSecrets`
 * find nothing in it but a high-entropy string (every generated id is one);
 * otherwise `#hidden-id`, which no shown id can be.
 */
export function shownToolCallId(id: string): string {
  if (!SAFE_ID_SHAPE.test(id)) return HIDDEN_TOOL_CALL_ID;
  const known = judgedIds.get(id);
  if (known !== undefined) return known;
  if (judgedIds.size >= MAX_JUDGED_IDS) judgedIds.clear();
  const shown = holdsValue(id) ? HIDDEN_TOOL_CALL_ID : id;
  judgedIds.set(id, shown);
  return shown;
}

/**
 * Ids already judged: every record of a call (one per guardrail, each
 * retry, each step) shows the same id, and judging one costs 17-38 µs
 * (findPii and findSecrets). Bounded; emptied when full.
 */
const judgedIds = new Map<string, string>();
const MAX_JUDGED_IDS = 1024;

function holdsValue(id: string): boolean {
  if (findPii(id).length > 0) return true;
  return findSecrets(id).some(span => span.type !== 'HIGH_ENTROPY_STRING');
}

/** Longest tool name a record's reason shows (`toolName` holds it whole). */
const MAX_REASON_TOOL_NAME = 64;

/**
 * A tool name as a record's reason shows it: quoted as JSON (a line break,
 * an ANSI escape or a quote written as an escape), bidirectional controls
 * escaped too, cut to 64 characters with `…`. An MCP server chooses its
 * names (round 24: a 200,000-character name was written whole into the
 * reason, and a name with `\n` forged a log line where records are printed).
 */
export function shownToolName(name: string): string {
  const quoted = JSON.stringify(cutToolName(name));
  return quoted.replace(
    /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g,
    char => `\\u${char.charCodeAt(0).toString(16)}`,
  );
}

/**
 * A tool name cut to 64 characters with `…` (never half of a surrogate
 * pair), as reasons and the `ai_guardrails.tool.name` span attribute show it.
 */
export function cutToolName(name: string): string {
  if (name.length <= MAX_REASON_TOOL_NAME) return name;
  let end = MAX_REASON_TOOL_NAME;
  const last = name.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${name.slice(0, end)}…`;
}
