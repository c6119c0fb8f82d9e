// The one error type the client throws (lookup-client.js and the drop-down
// adapters over it): a stable code to branch on, and the message to show.
// An answer the service gives, a 400 or a 404, is never thrown: it is the
// answer. Thrown are what no answer can say.

export type LookupErrorCode =
  /** createLookupClient was given no baseUrl where the runtime does not say where the client was loaded from. */
  | 'NO_BASE_URL'
  /** A file read failed with an HTTP status other than 404 or 410 (a 503, a 500): the answer is unknown, not absent. */
  | 'HTTP'
  /** No lookup.json at the base URL: no tree is served there. */
  | 'NO_TREE'
  /** lookup() or an adapter named a list the tree does not have (or, for lookup(), one that is not paged). */
  | 'UNKNOWN_LIST'
  /** lookup() named a paged list under a parent: its ids name an item only under their parent. */
  | 'UNDER_PARENT'
  /** lookup() named a group (a System) the tree does not have. */
  | 'UNKNOWN_GROUP'
  /** A file lookup.json routes to is missing, under the newest lookup.json too: the tree is broken. */
  | 'BROKEN_TREE'
  /** An adapter's request was answered with an error status (a 400, a 404): select2 shows it as "could not be loaded". */
  | 'ANSWERED'
  /** An adapter was called with arguments that do not fit the list (a cascade's parent ids). */
  | 'INVALID_ARGUMENT'
  /** The `fetch` given to createLookupClient answered without what the client reads (`arrayBuffer()` for the index's compressed files). */
  | 'BAD_FETCH';

export class LookupError extends Error {
  readonly code: LookupErrorCode;
  /** The HTTP status: the failed read's for HTTP, the answer's for ANSWERED. */
  readonly status: number | undefined;

  constructor(code: LookupErrorCode, message: string, status?: number) {
    super(message);
    this.name = 'LookupError';
    this.code = code;
    this.status = status;
  }
}

/** An answer as the client makes it; `request` hands it out as the typed Answer. */
export interface Answer {
  status: number;
  body: unknown;
}

/**
 * What tells a client that its lookup.json is older than the files it reads:
 * a file the manifest routes to is missing (the deploy renamed it), or a page
 * file's total is not the manifest's. `fallback` is the answer to give when
 * lookup.json turns out to be current after all (docs/tree.md, Across a deploy).
 */
export class Stale extends Error {
  constructor(
    message: string,
    readonly fallback?: Answer,
    readonly key = message,
  ) {
    super(message);
  }
}
