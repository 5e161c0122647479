/** A tool definition as the AI SDK gives it to the model (`prepareTools`), before any call offers it. */
export interface ListedDefinition {
  name: string;
  description?: string;
  inputSchema: unknown;
  inputExamples?: unknown;
}

/**
 * What each `guardTools` call with a `serverId` was given (the server's
 * listing), by the `serverTools` array its tools carry to the middleware in
 * `providerOptions.guardrails`: the AI SDK passes a tool's provider options
 * on by reference, so the middleware finds the listing of tools a call does
 * not offer (not in `activeTools`) and pins them as they were listed, not
 * as they are when a call first offers them. No dependency on `ai` here:
 * `guardTools` builds the definitions.
 */
const listings = new WeakMap<
  object,
  { build: () => Promise<ListedDefinition[]>; definitions?: Promise<ListedDefinition[]> }
>();

/** Records how to build the definitions of the tools one `guardTools` call wrapped with a `serverId`, under the `serverTools` array they carry. */
export function registerServerListing(
  serverTools: readonly string[],
  build: () => Promise<ListedDefinition[]>,
): void {
  if (!listings.has(serverTools)) listings.set(serverTools, { build });
}

/**
 * The definitions of a listing, built once per listing; undefined for a
 * list this process did not register (a copy, another bundle).
 */
export function listedDefinitions(serverTools: unknown): Promise<ListedDefinition[]> | undefined {
  if (serverTools === null || typeof serverTools !== 'object') return undefined;
  const listing = listings.get(serverTools);
  if (!listing) return undefined;
  listing.definitions ??= listing.build();
  return listing.definitions;
}
