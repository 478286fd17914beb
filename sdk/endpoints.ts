import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { BillingError, BillingValidationError, EndpointOutcomeUnknownError } from "./errors";

export { EndpointOutcomeUnknownError } from "./errors";

import { type EndpointInput, endpointInput, endpointUpdateInput, positiveId } from "./inputs";
import { type Endpoint, toEndpoint } from "./results";
import { backoffDelay, readBack } from "./retry";
import { failureOf, parseBody, type Transport } from "./transport";
import { keysOf, problemsOf } from "./validation";
import { endpointListResponse, endpointResponse, type WebhookEvent } from "./wire";

const ENDPOINTS = "/endpoints.json";

/** Every webhook endpoint of the site (the list is not paginated). */
export async function listEndpoints(t: Transport): Promise<Endpoint[]> {
  const rows = await t.call({ method: "GET", path: ENDPOINTS, repeatable: true }, endpointListResponse);
  return rows.map(toEndpoint);
}

export interface CreateEndpointOptions {
  /** Reuse a token, e.g. to resume after {@link EndpointOutcomeUnknownError}. Default: a fresh UUID. */
  readonly uniquenessToken?: string;
  readonly maxRetries: number;
  readonly retryBaseDelayMs: number;
  /** How long to read back after a duplicate-submission answer before calling the outcome unknown. */
  readonly settleMs: number;
}

interface Wanted {
  /** The url, checked and exactly as written. */
  readonly url: string;
  /** The event keys, sorted and distinct. */
  readonly events: readonly WebhookEvent[];
}

/**
 * Validates an endpoint and builds its wire body; `events` sorted and distinct.
 * `endpointId` and `uniquenessToken`, when given as keys, are checked too, so
 * that every problem is named at once, in a {@link BillingValidationError}.
 */
export function endpointBodyOf(
  input: EndpointInput,
  options: {
    /** Accept an empty `events` list, as an update does (it unsubscribes the endpoint); a create refuses one. Default false. */
    allowNoEvents?: boolean;
    /** An endpoint id to check with the input (a positive integer), returned as `id`. */
    endpointId?: unknown;
    /** A token to check with the input: a non-empty string, when given. */
    uniquenessToken?: unknown;
  } = {},
): Wanted & {
  /** The checked `endpointId`, when one was given. */
  id?: number;
} {
  const schema = options.allowNoEvents ? endpointUpdateInput : endpointInput;
  const parsed = schema.safeParse(input);
  const id = "endpointId" in options ? positiveId.safeParse(options.endpointId) : undefined;
  const token = options.uniquenessToken;
  const problems = [
    ...(id === undefined || id.success ? [] : problemsOf(id.error, "endpointId")),
    ...(parsed.success ? [] : problemsOf(parsed.error, "endpoint", { "": keysOf(schema) })),
    ...(token === undefined || (typeof token === "string" && token !== "")
      ? []
      : [{ property: "uniquenessToken", message: "must be a non-empty string (the token of the create being resumed)" }]),
  ];
  if (problems.length > 0 || !parsed.success) throw new BillingValidationError("invalid webhook endpoint", problems);
  return { url: parsed.data.url, events: parsed.data.events, ...(id?.success ? { id: id.data } : {}) };
}

const sameEvents = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((e, i) => e === b[i]);

/**
 * The endpoint that a create of `w` made, read back from the list: the one with
 * that url and exactly those events (the newest, should there be several).
 */
async function findCreated(t: Transport, w: Wanted): Promise<Endpoint | undefined> {
  const matches = (await listEndpoints(t)).filter((e) => e.url === w.url && sameEvents(e.events, w.events));
  return matches.sort((a, b) => b.id - a.id)[0];
}

/**
 * Creates an endpoint once. The POST carries a `uniqueness_token` and is never
 * repeated blindly: after an outcome that may have been applied (5xx, reset,
 * timeout) the list is read back, and an endpoint with this url and these
 * events is the one created; only when there is none is the POST sent again,
 * with the same token. A 409 "duplicate submission" means a request with this
 * token was applied or is still being processed: the list is read until the
 * endpoint appears, for at most `settleMs`. An outcome that stays unknown is
 * {@link EndpointOutcomeUnknownError}, never "nothing was created".
 *
 * The read-back cannot tell an endpoint this create made from an identical one
 * (same url, same events) made before it: the service has no other key.
 */
export async function createEndpoint(t: Transport, input: EndpointInput, opts: CreateEndpointOptions): Promise<Endpoint> {
  const w = endpointBodyOf(input, { uniquenessToken: opts.uniquenessToken });
  const token = opts.uniquenessToken ?? randomUUID();
  const req = {
    method: "POST",
    path: ENDPOINTS,
    repeatable: false,
    body: { endpoint: { url: w.url, webhook_subscriptions: w.events }, uniqueness_token: token },
  } as const;
  const unknown = (cause: BillingError, why: string) =>
    new EndpointOutcomeUnknownError({ url: w.url, events: w.events, uniquenessToken: token, cause, why });
  let ambiguous: BillingError | undefined;

  for (let attempt = 0; ; attempt++) {
    const x = await t.send(req);
    const o = x.outcome;
    if (o.kind === "success") {
      try {
        return toEndpoint(parseBody(req, o.status, o.body, endpointResponse).endpoint);
      } catch (err) {
        // Created, but the answer does not say what: the list does.
        const created = await findCreated(t, w).catch(() => undefined);
        if (created) return created;
        throw unknown(
          err as BillingError,
          `the service answered ${o.status} with a body this SDK does not understand, and the endpoint is not listed`,
        );
      }
    }
    if (o.kind === "duplicate") {
      // Applied, or still being processed: read the list until the endpoint appears, for at most settleMs.
      const r = await readBack<Endpoint>(opts.settleMs, opts.retryBaseDelayMs, async () => {
        const created = await findCreated(t, w);
        return created ? { found: created } : { seen: "not listed" };
      });
      if ("found" in r) return r.found;
      throw unknown(
        failureOf(req, x),
        `the service answered that a request with this uniqueness_token was already submitted (it may still be processing), ` +
          `and after ${Math.round(opts.settleMs / 1000)} s of reading back the endpoint is ${r.last}`,
      );
    }
    const failure = failureOf(req, x);
    if (o.kind !== "ambiguous") {
      // Refused, rate limited past the budget, or never sent: this attempt applied nothing, an earlier ambiguous one might have.
      if (ambiguous) throw unknown(failure, `an attempt failed ambiguously (${ambiguous.message}), then the next one ${failure.message}`);
      throw failure;
    }
    ambiguous = failure;
    let created: Endpoint | undefined;
    try {
      created = await findCreated(t, w);
    } catch (readErr) {
      throw unknown(
        readErr instanceof BillingError ? readErr : failure,
        `the request failed (${failure.message}) and the endpoints could not be read back`,
      );
    }
    if (created) return created;
    if (attempt >= opts.maxRetries) {
      throw unknown(
        failure,
        `${attempt + 1} attempt(s) failed ambiguously (last: ${failure.message}) and no endpoint with this url and these events is listed yet`,
      );
    }
    await sleep(backoffDelay(attempt, opts.retryBaseDelayMs));
  }
}

/**
 * Sets an endpoint's url and its complete list of events (an empty list
 * unsubscribes it from every event). A PUT of a value: repeated like a read.
 */
export async function updateEndpoint(t: Transport, endpointId: unknown, input: EndpointInput): Promise<Endpoint> {
  const w = endpointBodyOf(input, { allowNoEvents: true, endpointId });
  const res = await t.call(
    {
      method: "PUT",
      path: `/endpoints/${w.id}.json`,
      repeatable: true,
      body: { endpoint: { url: w.url, webhook_subscriptions: w.events } },
    },
    endpointResponse,
  );
  return toEndpoint(res.endpoint);
}
