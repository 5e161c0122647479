/**
 * SHA-256 of `text` as hex (the core's: in process for short texts, Web
 * Crypto for long ones, on Node 20+ and edge runtimes alike), so cache keys
 * are short and reveal nothing of the judged content. One digest per text:
 * a text with a lone surrogate is hashed apart from every other (this copy
 * hashed `TextEncoder` bytes, which write a lone surrogate as U+FFFD, so
 * `"a\uD800"` and `"a\uFFFD"` shared a judge verdict or a pseudonym).
 */
export { sha256Hex } from '../../core/sha256-hex';
