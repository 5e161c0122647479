import { isTextMediaType, isUntypedMediaType } from '../tools/model-output-check';

type SupportedUrls = Record<string, RegExp[]>;

/** What `*` and `application/*` of a model's `supportedUrls` keep: types no guardrail reads as text. */
const FETCHED_FAMILIES = ['image/*', 'audio/*', 'video/*', 'application/pdf'];

/**
 * A model's `supportedUrls` without the URLs of files the guardrails read
 * as text (a text media type, JSON, CSV, ..., `application/octet-stream`):
 * `generateText` / `streamText` download a URL the model does not support
 * before the call (`download`), so the middleware reads its bytes; a URL
 * the model supports went on as a URL, which the provider fetched after the
 * guardrails ran (round 21: a `text/plain` file by URL to a model
 * supporting `*` reached it unread). `*` / `*∕*` keep images, audio, video
 * and PDFs; `application/*` keeps PDFs; other keys stay as they are.
 */
export function withoutTextUrls(supported: SupportedUrls): SupportedUrls {
  const kept: SupportedUrls = {};
  const keep = (key: string, patterns: RegExp[]) => {
    kept[key] = Object.hasOwn(kept, key) ? [...kept[key]!, ...patterns] : [...patterns];
  };
  for (const [key, patterns] of Object.entries(supported)) {
    if (!Array.isArray(patterns)) continue;
    const type = key.trim().toLowerCase();
    if (type === '*' || type === '*/*') {
      for (const family of FETCHED_FAMILIES) keep(family, patterns);
    } else if (type === 'application/*') keep('application/pdf', patterns);
    else if (type === 'text' || isTextMediaType(type) || isUntypedMediaType(type)) continue;
    else keep(key, patterns);
  }
  return kept;
}

/** {@link withoutTextUrls} of a model's `supportedUrls`, which may be a promise. */
export function supportedUrlsWithoutText(
  supported: SupportedUrls | PromiseLike<SupportedUrls>,
): SupportedUrls | PromiseLike<SupportedUrls> {
  return typeof (supported as PromiseLike<SupportedUrls>).then === 'function'
    ? Promise.resolve(supported).then(withoutTextUrls)
    : withoutTextUrls(supported as SupportedUrls);
}
