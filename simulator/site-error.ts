import type { AuthenticationRequired, ErrorList } from "./wire";

/**
 * The bodies a refusal is answered with: the error list most operations use,
 * the 3-D Secure list, a product price point's object of field lists, a bulk
 * create's map of indexed keys, a single error (the metafields'), or
 * (listProductsForProductFamily's published 404) a bare JSON string.
 */
export type RefusalBody =
  | ErrorList
  | AuthenticationRequired
  | { errors: Record<string, string[] | string> }
  | Record<string, string[]>
  /** The contract's `Single Error Response` (the metafield operations' 422). */
  | { error: string }
  | string;

/** A rule the site refuses a request with: the answer's status and body. */
export class SiteError extends Error {
  readonly body: RefusalBody;
  /** A string is the one message of an error list; an object is the body as it stands. */
  constructor(
    readonly status: number,
    errorOrBody: string | Exclude<RefusalBody, string>,
  ) {
    const body = typeof errorOrBody === "string" ? { errors: [errorOrBody] } : errorOrBody;
    super(describe(body));
    this.body = body;
  }

  /** A refusal whose body is a bare JSON string, as the vendor publishes a few. */
  static bare(status: number, text: string): SiteError {
    const e = new SiteError(status, { errors: [text] });
    (e as { body: RefusalBody }).body = text;
    return e;
  }
}

function describe(body: Exclude<RefusalBody, string>): string {
  const errors = (body as { errors?: unknown }).errors;
  return Array.isArray(errors) ? errors.join("; ") : JSON.stringify(body);
}
