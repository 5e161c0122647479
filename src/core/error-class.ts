/*
 * What a record, reason or message may say of an error it cannot quote.
 * An error's message may carry a value (a store's error: a Redis URL with
 * its password, a key, the value it could not parse), and a `name` or
 * `code` getter could throw or carry one too: only plain data that looks
 * like a class name or an error code is shown.
 */

const accessor = Symbol('accessor');

/** A property's value when it is data on the object or its prototypes; a symbol for a getter. */
export function dataProperty(value: object, key: string): unknown {
  for (let at: object | null = value; at !== null; at = Object.getPrototypeOf(at)) {
    const descriptor = Object.getOwnPropertyDescriptor(at, key);
    if (descriptor) return 'value' in descriptor ? descriptor.value : accessor;
  }
  return undefined;
}

/**
 * An error's class name when that is a plain data `name` such as
 * `TypeError`, else `Error` (an `Error`) or its type. A `name` getter could
 * throw (the guard's own catch then threw the getter's error, whose text
 * reached the model unjudged) or carry the value.
 */
export function errorClass(error: unknown): string {
  if (!(error instanceof Error)) return error === null ? 'null' : typeof error;
  try {
    const name = dataProperty(error, 'name');
    return typeof name === 'string' && /^[A-Z][A-Za-z]{0,39}$/.test(name) ? name : 'Error';
  } catch {
    return 'Error';
  }
}

/**
 * An error's class and, when it has one as plain data, its code
 * (`ECONNREFUSED`, `ERR_…`: capitals, digits and `_`, at most 40), as
 * `AI_StoreTimeoutError` or `Error ECONNREFUSED`. Never its message.
 */
export function errorClassAndCode(error: unknown): string {
  if (!(error instanceof Error)) return errorClass(error);
  try {
    const name = dataProperty(error, 'name');
    // AI SDK errors are named `AI_…`.
    const kind =
      typeof name === 'string' && /^[A-Z][A-Za-z0-9_]{0,39}$/.test(name) ? name : 'Error';
    const code = dataProperty(error, 'code');
    return typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,39}$/.test(code)
      ? `${kind} ${code}`
      : kind;
  } catch {
    return 'Error';
  }
}
