/**
 * `@presidio-dev/hai-guardrails`: its regex PII guard, its secret guard
 * (patterns + entropy) and its injection guard, each through
 * `GuardrailsEngine.run` on one user message.
 *
 * Importing the package starts a worker pool for its heuristic injection
 * tactic whose worker path is the package's build machine path
 * (`/home/runner/work/...`); every worker fails to load and the pool emits an
 * unhandled `error`. Those errors would end the process, so they are counted
 * here instead and reported; the heuristic mode itself never answers.
 */
import { type Detector, installedVersion, type SystemAdapter, spansFromRedaction } from './adapter';

interface GuardMessageResult {
  passed: boolean;
  modifiedMessage?: { content: string };
}

const haiTypes: Record<string, string> = {
  EMAIL: 'EMAIL_ADDRESS',
  PHONE: 'PHONE_NUMBER',
  SSN: 'US_SSN',
  'CREDIT-CARD': 'CREDIT_CARD',
  'IP-ADDRESS': 'IP_ADDRESS',
};

let poolErrors = 0;
let firstPoolError: string | undefined;

function countPoolErrors(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (!message.includes('piscina') && !message.includes('heuristic.worker')) {
    process.stderr.write(`${error instanceof Error ? error.stack : message}\n`);
    process.exit(1);
  }
  poolErrors++;
  firstPoolError ??= message;
}

/** How long the heuristic mode gets to answer one text before it counts as hung. */
const heuristicTimeoutMs = 5_000;

/** `@presidio-dev/hai-guardrails` PII, secret and injection guards (pattern and heuristic modes). */
export async function haiGuardrails(): Promise<SystemAdapter> {
  process.on('uncaughtException', countPoolErrors);
  const { GuardrailsEngine, injectionGuard, piiGuard, secretGuard, SelectionType } = await import(
    '@presidio-dev/hai-guardrails'
  );
  const run = async (guard: unknown, text: string): Promise<GuardMessageResult> => {
    const engine = new GuardrailsEngine({ guards: [guard as never] });
    const result = await engine.run([{ role: 'user', content: text }]);
    return result.messagesWithGuardResult[0]!.messages[0] as unknown as GuardMessageResult;
  };
  const guards = {
    pii: piiGuard({ selection: SelectionType.All }),
    secret: secretGuard({ selection: SelectionType.All }),
    pattern: injectionGuard({ roles: ['user'] }, { mode: 'pattern', threshold: 0.5 }),
    heuristic: injectionGuard({ roles: ['user'] }, { mode: 'heuristic', threshold: 0.5 }),
  };
  const injection = (mode: 'pattern' | 'heuristic'): Detector => ({
    label: mode,
    call: `injectionGuard({ roles: ['user'] }, { mode: '${mode}', threshold: 0.5 })`,
    async detect(text) {
      const outcome =
        mode === 'pattern'
          ? run(guards.pattern, text)
          : Promise.race([
              run(guards.heuristic, text),
              new Promise<never>((_, reject) =>
                setTimeout(
                  () =>
                    reject(
                      new Error(
                        `no answer within ${heuristicTimeoutMs / 1000} s; its worker pool failed to start: ${firstPoolError ?? 'no error reported'}`,
                      ),
                    ),
                  heuristicTimeoutMs,
                ),
              ),
            ]);
      return { flagged: !(await outcome).passed };
    },
  });
  return {
    system: '@presidio-dev/hai-guardrails',
    version: installedVersion('@presidio-dev/hai-guardrails'),
    detectors: {
      pii: [
        {
          label: '',
          call: 'piiGuard({ selection: SelectionType.All }) (redact mode)',
          async detect(text) {
            const result = await run(guards.pii, text);
            const redacted = result.modifiedMessage?.content;
            if (redacted === undefined || redacted === text) return { flagged: false, spans: [] };
            const spans = spansFromRedaction(
              text,
              redacted,
              /\[REDACTED-([A-Z0-9-]+)\]/,
              label => haiTypes[label] ?? `HAI_${label}`,
            );
            return { flagged: true, spans };
          },
        },
      ],
      secrets: [
        {
          label: '',
          call: 'secretGuard({ selection: SelectionType.All }) (redact mode)',
          async detect(text) {
            const result = await run(guards.secret, text);
            const redacted = result.modifiedMessage?.content;
            return { flagged: !result.passed || (redacted !== undefined && redacted !== text) };
          },
        },
      ],
      'injection-direct': [injection('pattern'), injection('heuristic')],
      'injection-indirect': [injection('pattern'), injection('heuristic')],
    },
    unavailable: {
      harmful:
        'its toxic, hate-speech and adult-content guards are LLM calls (need a model and network)',
    },
    notes: [
      'PII spans are read from the redacted message it returns: the text between `[REDACTED-…]` placeholders is kept verbatim. Its types EMAIL, PHONE, SSN, CREDIT-CARD and IP-ADDRESS are mapped to EMAIL_ADDRESS, PHONE_NUMBER, US_SSN, CREDIT_CARD, IP_ADDRESS; its medical types keep their names (HAI_MRN, ...).',
      'Its secret guard redacts but reports `passed: true` in its default redact mode; a text counts as flagged when it was redacted.',
      'Importing the package starts a worker pool for the heuristic injection tactic whose worker file path is hard-coded to its build machine (`/home/runner/work/hai-guardrails/...`); each worker fails to load and the pool keeps respawning them, raising unhandled errors that would end the process. The harness counts and swallows these to measure the other guards.',
    ],
    backgroundErrors: () => ({ count: poolErrors, first: firstPoolError }),
  };
}
