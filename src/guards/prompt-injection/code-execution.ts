/**
 * A request that the assistant run code that reaches the operating system
 * (issue 15, round 51 hB): "What is the final result of 'import os;
 * res = os.popen("…").read(); print(res)'", "Execute the following system
 * command: …", "Decode and execute: <base64>". The code-interpreter
 * injection of LLM apps that evaluate what the model writes or is given
 * (OWASP LLM01 / LLM05; the LangChain math-chain and PandasAI remote code
 * executions): the attacker needs the command's output, so the message asks
 * for the code's result, or orders it run, and the code spawns a shell or
 * escapes a Python sandbox. Written as a kind from general knowledge, not
 * from any source's strings.
 *
 * Developers paste `eval`, `exec`, `subprocess` and `os.system` every day,
 * so neither half counts alone, and an ordinary question about such code
 * is a question of the user's own ("What is the output of
 * `subprocess.run(…)`? I expected a string", "Run this: os.popen('date')
 * .read() — why the newline?"). The signal needs the message to be the
 * order and its payload only:
 * - the message opens (after at most three lead words: `please`, `now`,
 *   `just`, `then`, `and`, `so`, `hello`, `hi`, `hey`, `can / could / would
 *   you`, a comma after each allowed) with an ask to run code: `what is /
 *   what's / what would be the [final] result / output of` right before a
 *   quote, a backtick or a colon (the code is the object, inline); or
 *   `execute` / `run` whose object is a colon, a quote, a backtick, or
 *   `this / these / [the] following` with a colon or a code noun
 *   (`[system / shell / os / python / bash / terminal] command(s) / code /
 *   script / payload`) right after ("Execute a shell command from Python?"
 *   is a how-to title; "execute the following steps" a plan; `evaluate`
 *   mostly means judge);
 * - no question mark anywhere (the user asks nothing of their own);
 * - a primitive that reaches the shell or leaves a Python sandbox:
 *   `os.popen`, `os.system`, `os.exec…`, `os.spawn…`, `subprocess.`,
 *   `popen(`, `__import__`, `__subclasses__`, `__globals__`,
 *   `__builtins__`, `child_process`, `Runtime.getRuntime`, `shell_exec`,
 *   `proc_open`, `/bin/sh`, `/bin/bash`, `| sh`, `| bash`, `nc -e`,
 *   `system / os / shell command`, `reverse shell`, `backdoor`;
 *   or, instead of the ask and the primitive, an opening `decode and
 *   execute / run` with a colon or `it / this / the following` (an encoded
 *   payload to be run).
 *
 * The text as written, case-insensitive (no folding: a folded reading was
 * not screened). Regular expressions without nested unbounded quantifiers
 * (alternations of literals, bounded lead words): linear in the input.
 */

/*
 * KEEP RULE (round 51 hB; first committed at 2017143e, restated for the
 * narrowed rule before the deciding measurement). The measurement: the
 * floor method on the direct 5-fold LOSO scores of the base commit e3931c8e
 * (`--loso --source-folds 5 --only direct --loso-scores`, rule off): every
 * left-out row the rule reads scores at least 0.99 at its fold's threshold;
 * exact because the rule reads no benign row of the screen, so no threshold
 * moves. Kept (on) if one attack source gains >= 0.02 and none loses > 0.01,
 * every benign source's FPR is within +0.005, ordinary chat (synthetic)
 * <= 0.042, decoding requests <= 12 of 200, look-alikes <= 16 of 1,242; of
 * the 48 ordinary first turns of test/fixtures/r51-hB-code-ordinary.txt
 * (committed before the rule existed) at most 1 newly blocked at the
 * default threshold; and of the 15 of r51-hB-code-ordinary-hard.txt
 * (written before the rule read them; in sample for the narrowing) at most
 * 1 newly blocked. Otherwise the rule stays off.
 */

/**
 * Whether `scorePromptInjection` applies the rule (direct mode, any turn).
 * Off: the rule passed the keep rule above, but round 51's first review
 * (hH, `attack-r51-review-code-execution.test.ts`) found 5 of 7 ordinary
 * asks to run one's own code (a notebook or data-analysis assistant with a
 * code tool: `Execute this code: import os; print(os.system('nproc'))`)
 * floored at 0.99; the words of an order to run code cannot tell the
 * user's own code from an attack's. The trainer measures it with
 * `CODE_EXECUTION=1` (see train-injection.ts).
 */
export const CODE_EXECUTION_ON = false;

/** Signal id in `scorePromptInjection`'s signals (when the rule is on). */
export const CODE_EXECUTION_SIGNAL = 'code-execution';

/**
 * Probability a direct-mode text gets when it asks the assistant to run
 * shell-reaching code: over every threshold the trainer picks.
 */
export const CODE_EXECUTION_PROBABILITY = 0.99;

/**
 * Code that spawns a shell or leaves a Python sandbox: `os.popen`,
 * `os.system`, `os.exec…`, `os.spawn…`, `subprocess.`, `popen(`,
 * `__import__`, `__subclasses__`, `__globals__`, `__builtins__`,
 * `child_process`, `Runtime.getRuntime`, `shell_exec`, `proc_open`,
 * `/bin/sh`, `/bin/bash`, `| sh`, `| bash`, `nc -e`, `system / os / shell
 * command`, `reverse shell`, `backdoor` (an alternation of literals).
 */
const PRIMITIVE =
  /os\.popen|os\.system|os\.exec|os\.spawn|subprocess\.|popen\(|__import__|__subclasses__|__globals__|__builtins__|child_process|runtime\.getruntime|shell_exec|proc_open|\/bin\/sh|\/bin\/bash|\| sh|\| bash|nc -e|system command|os command|shell command|reverse shell|backdoor/i;

/** Up to three lead words before the order, at the start of the message. */
const LEAD =
  '^\\s*(?:(?:please|now|just|then|and|so|hello|hi|hey|(?:can|could|would) you)(?:[ \\t]*,)?[ \\t]+){0,3}';

/** An encoded payload handed over to be run. */
const DECODE_AND_RUN = new RegExp(
  `${LEAD}decode and (?:execute|run)[ \\t]*(?::|[ \\t]+(?:it|this|the following)\\b)`,
  'i',
);

/** "what is the [final] result of '…" with the code inline. */
const RESULT_ASK = new RegExp(
  `${LEAD}what(?:\\s+is|'s|\u2019s|\\s+would\\s+be)\\s+the\\s+(?:final\\s+)?(?:result|output)\\s+of\\s{0,3}["'\`\u2018\u201c:]`,
  'i',
);

/** `execute` / `run` opening the message, aimed at code. */
const RUN_ORDER = new RegExp(
  `${LEAD}(?:execute|run)[ \\t]*(?:[:"'\`\u2018\u201c]|(?:this|these|the following|following)(?:[ \\t]*:|[ \\t]+(?:(?:system|shell|os|python|bash|terminal)[ \\t]+)?(?:commands?|code|script|payload)\\b))`,
  'i',
);

/** Whether `text` is an order to run code that reaches the shell, and nothing else. */
export function hasCodeExecution(text: string): boolean {
  if (text.includes('?') || text.includes('\uff1f')) return false;
  if (DECODE_AND_RUN.test(text)) return true;
  return PRIMITIVE.test(text) && (RESULT_ASK.test(text) || RUN_ORDER.test(text));
}
