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
 * so neither half counts alone. The signal needs both:
 * - an ask aimed at the assistant to run it: `what is / what's / what would
 *   be the [final] result / output of` right before a quote, a backtick or
 *   a colon (the code is the object, inline); or `execute` / `run` /
 *   `evaluate` at the start of the text or a clause (after `.!?;:` or a new
 *   line, and up to three lead words: `please`, `now`, `just`, `then`,
 *   `and`, `so`, `hello`, `hi`, `hey`, `can / could / would you`) whose
 *   object is a colon, a quote, a backtick, `this`, `these` or `the
 *   following` ("Execute a shell command from Python?" is a how-to title,
 *   not an order);
 * - a primitive that reaches the shell or leaves a Python sandbox:
 *   `os.popen`, `os.system`, `os.exec…`, `os.spawn…`, `subprocess.`,
 *   `popen(`, `__import__`, `__subclasses__`, `__globals__`,
 *   `__builtins__`, `child_process`, `Runtime.getRuntime`, `shell_exec`,
 *   `proc_open`, `/bin/sh`, `/bin/bash`, `| sh`, `| bash`, `nc -e`,
 *   `system / os / shell command`, `reverse shell`, `backdoor`.
 * `decode and execute` / `decode and run` (an encoded payload to be run)
 * counts on its own.
 *
 * The text as written, case-insensitive (no folding: a folded reading was
 * not screened). Regular expressions without nested unbounded quantifiers
 * (alternations of literals, bounded lead words): linear in the input.
 */

/*
 * KEEP RULE (round 51 hB, committed before the deciding run): the direct
 * 5-fold LOSO with CODE_EXECUTION=1 (`--loso --source-folds 5 --only direct
 * --loso-scores`; each row's `withoutCodeExecution` from the same run gives
 * the table without the rule, checked against the committed table). Kept if
 * one attack source gains >= 0.02 and none loses > 0.01, every benign
 * source's FPR is within +0.005, ordinary chat (synthetic) <= 0.042,
 * decoding requests <= 12 of 200, look-alikes <= 16 of 1,242, and of the 48
 * ordinary first turns of test/fixtures/r51-hB-code-ordinary.txt (written
 * and committed before the rule existed) at most 1 is newly blocked at the
 * default threshold with the rule on. Otherwise the rule stays off.
 */

/**
 * Whether `scorePromptInjection` applies the rule (direct mode): off until it
 * passes its keep rule (the trainer's `CODE_EXECUTION=1` measures it).
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

/** An encoded payload handed over to be run. */
const DECODE_AND_RUN = /decode and (?:execute|run)/i;

/** "what is the [final] result of '…" with the code inline. */
const RESULT_ASK =
  /\bwhat(?:\s+is|'s|\u2019s|\s+would\s+be)\s+the\s+(?:final\s+)?(?:result|output)\s+of\s{0,3}["'`\u2018\u201c:]/i;

/** `execute` / `run` / `evaluate` opening a clause, aimed at code. */
const RUN_ORDER =
  /(?:^|[.!?;:\n])[ \t]*(?:(?:please|now|just|then|and|so|hello|hi|hey|(?:can|could|would) you)(?:[ \t]*,)?[ \t]+){0,3}(?:execute|run|evaluate)[ \t]*(?:[:"'`\u2018\u201c]|(?:this|these|the following|following)\b)/i;

/** Whether `text` asks the assistant to run code that reaches the shell. */
export function hasCodeExecution(text: string): boolean {
  if (DECODE_AND_RUN.test(text)) return true;
  return PRIMITIVE.test(text) && (RESULT_ASK.test(text) || RUN_ORDER.test(text));
}
