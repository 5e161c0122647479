/** Types for `llm_guardrail`, which ships none: the parts the comparison calls. */
declare module 'llm_guardrail' {
  /** One model's verdict on a text. */
  export interface LlmGuardrailVerdict {
    allowed: boolean;
    detected: boolean;
    prediction: number;
    confidence: number;
    probabilities: { safe: number; threat: number };
  }
  /** Its prompt-injection model. */
  export function checkInjection(prompt: string): Promise<LlmGuardrailVerdict>;
  /** Its jailbreak model. */
  export function checkJailbreak(prompt: string): Promise<LlmGuardrailVerdict>;
}
