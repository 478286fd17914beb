import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { BillingApiError, EndpointOutcomeUnknownError } from "../../sdk/errors";
import { endpointInput } from "../../sdk/inputs";
import type { Endpoint } from "../../sdk/results";
import { WEBHOOK_EVENTS, type WebhookEvent } from "../../sdk/wire";
import { shellProvider } from "../shell";
import type { WebhookEndpointArgs, WebhookEndpointOutputs } from "./generated/webhook-endpoint";
import { accepting, siteInput } from "./inputs";
import { type ArgsOf, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";

const kind = declareKind({
  key: "webhookEndpoint",
  type: "WebhookEndpoint",
  summary: "Where a site's webhooks go and which events go there; an existing endpoint with the same url is adopted.",
  inputs: z.object({
    url: accepting<string>({ type: "string", format: "uri", maxLength: 2048 })(endpointInput.shape.url).describe(
      "Absolute https URL that receives the webhooks (http only for localhost, 127.0.0.1, [::1]); at most 2048 characters.",
    ),
    events: accepting<readonly (WebhookEvent | (string & {}))[]>({
      type: "array",
      minItems: 1,
      items: { type: "string", enum: [...WEBHOOK_EVENTS] },
    })(endpointInput.shape.events).describe(
      "Event keys to deliver there (at least one), e.g. payment_failure, subscription_state_change; order and duplicates are ignored.",
    ),
    site: siteInput,
  }),
  outputs: z.object({
    endpointId: z.number().int().describe("The service's id of the endpoint."),
    url: z.string().describe("The url as the service stores it."),
    events: z.array(z.string()).describe("The events it is subscribed to, sorted (a key this package does not know yet is kept)."),
    status: z.string().nullable().describe('The service\'s status of the endpoint ("enabled"), null when it does not report one.'),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["site"],
  refresh: true,
  onDelete: "PUT with an empty event list (the service has no delete): the endpoint stays, subscribed to nothing",
  example: { url: "https://hooks.example.com/billing", events: ["payment_failure", "subscription_state_change"] },
});

type Inputs = InputsOf<typeof kind>;
/** An endpoint as declared, or as recorded while its create is pending. */
type Wanted = Pick<Inputs, "url" | "site"> & { readonly events: readonly string[] };

/**
 * The record: the outputs, or while a create's outcome is unknown (its answer
 * lost, and the endpoint not yet listed) the token to resume it with; the
 * next `up` looks for the endpoint again and re-sends with that token only if
 * it is still not there.
 */
const state = kind.outputs.partial().extend({
  url: z.string(),
  events: z.array(z.string()),
  pendingToken: z.string().optional(),
});
type State = z.output<typeof state>;

const recordOf = (e: Endpoint, site: string | undefined): State => ({
  endpointId: e.id,
  url: e.url,
  events: e.events,
  status: e.status ?? null,
  ...(site !== undefined ? { site } : {}),
});

const sameEvents = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((e, i) => e === b[i]);

/** The endpoint's id: recorded, else the resource id (an import names it). */
function endpointIdOf(id: string, s: State): number | undefined {
  if (s.endpointId !== undefined) return s.endpointId;
  return /^[1-9][0-9]*$/.test(id) ? Number(id) : undefined;
}

/** The site's endpoint at `url` (the oldest, should there be several): the one a create adopts, or a lost create made. */
async function endpointAt(client: ReturnType<Context["client"]>, url: string): Promise<Endpoint | undefined> {
  return (await client.listEndpoints()).filter((e) => e.url === url).sort((a, b) => a.id - b.id)[0];
}

/**
 * Creates the endpoint, or adopts the site's endpoint that already has this
 * url: the service would otherwise hold two endpoints sending every event
 * twice. An adopted endpoint gets the declared events (a PUT of the list).
 */
async function createOrAdopt(
  ctx: Context,
  id: string | undefined,
  inputs: Wanted,
  token: string | undefined,
): Promise<{ id: string; state: State }> {
  const client = ctx.client(inputs.site);
  const body = { url: inputs.url, events: inputs.events };
  const existing = await endpointAt(client, inputs.url);
  if (existing) {
    const adopted = sameEvents(existing.events, inputs.events) ? existing : await client.updateEndpoint(existing.id, body);
    ctx.notice(
      `WebhookEndpoint: adopted the existing endpoint ${existing.id} of site ${ctx.siteLabel(inputs.site)} for ${inputs.url}` +
        (adopted === existing ? " (its events were already the declared ones)" : `; its events are now ${inputs.events.join(", ")}`),
    );
    return { id: id ?? String(existing.id), state: recordOf(adopted, inputs.site) };
  }
  try {
    const created = await client.createEndpoint(body, token ? { uniquenessToken: token } : {});
    return { id: id ?? String(created.id), state: recordOf(created, inputs.site) };
  } catch (err) {
    if (!(err instanceof EndpointOutcomeUnknownError)) throw err;
    const pendingId = id ?? `pending-${err.uniquenessToken}`;
    throw ctx.partialFailure(
      `${err.message}. Recorded: the next \`pulumi up\` looks for the endpoint again and only re-sends the create, with the same token, if it is not there.`,
      pendingId,
      {
        url: inputs.url,
        events: [...inputs.events],
        ...(inputs.site !== undefined ? { site: inputs.site } : {}),
        pendingToken: err.uniquenessToken,
      },
    );
  }
}

const gone = (id: string | number) =>
  `webhook endpoint ${id} no longer exists on the service (removed outside this stack): run \`pulumi refresh\` to drop it from the stack, and the next \`pulumi up\` creates it again`;

/** `123` (the configured site) or `eu-shop/123` (an entry of billing:sites). */
const ENDPOINT_ID = /^(?:(.+)\/)?([1-9][0-9]*)$/;

export const webhookEndpoint: KindModule<typeof kind, State> = {
  kind,
  /**
   * By the service's endpoint id. The kind's read finds the endpoint by the resource id when the state has no
   * endpointId (its own rule for imports), so the seed holds only what the state requires; the site, when the
   * id names one, says which credentials to use.
   */
  importer: {
    forms: "the service's id of the endpoint (e.g. 123), or <site>/<id> for an entry of billing:sites",
    async read(ctx, importId) {
      const m = ENDPOINT_ID.exec(importId);
      if (!m)
        throw new Error(
          `WebhookEndpoint import id "${importId}" is not an endpoint id: give the service's id of the endpoint (e.g. 123), or <site>/<id> for an entry of billing:sites`,
        );
      const [, site, id = ""] = m;
      const seed = state.parse({ url: "", events: [], ...(site !== undefined ? { site } : {}) });
      const read = await webhookEndpoint.operations.read?.(ctx, id, seed);
      if (!read || Object.keys(read).length === 0)
        throw new Error(
          `webhook endpoint ${id} does not exist on ${site === undefined ? "the configured site" : `site "${site}"`}: nothing to import`,
        );
      return { id, state: read, inputs: webhookEndpoint.operations.recordedInputs(read) };
    },
  },
  operations: {
    state,
    recordedInputs: ({ url, events, site }) => ({ url, events, site }),
    unfinished: (s) => s.pendingToken !== undefined,

    create: (ctx, inputs) => createOrAdopt(ctx, undefined, inputs, undefined),

    /** The complete event list and the url, in one PUT; a create left unknown is finished first. */
    async update(ctx, id, s, inputs) {
      const wanted = { url: inputs.url, events: inputs.events };
      if (s.pendingToken !== undefined) {
        // Resume with the body that token was sent with (the declaration may have changed since), then apply the change.
        const resumed = (await createOrAdopt(ctx, id, { url: s.url, events: s.events, site: s.site }, s.pendingToken)).state;
        if (resumed.endpointId === undefined || (resumed.url === inputs.url && sameEvents(resumed.events, inputs.events))) return resumed;
        try {
          return recordOf(await ctx.client(s.site).updateEndpoint(resumed.endpointId, wanted), s.site);
        } catch (err) {
          // The create is settled: record its endpoint (and drop the token), so the next up only applies the change.
          throw ctx.partialFailure(
            `the endpoint of the earlier create is ${resumed.endpointId}, recorded; applying the declared url and events to it failed ` +
              `(${err instanceof Error ? err.message : String(err)}); the next \`pulumi up\` applies them`,
            id,
            resumed,
          );
        }
      }
      const endpointId = endpointIdOf(id, s);
      if (endpointId === undefined) return (await createOrAdopt(ctx, id, inputs, undefined)).state;
      if (s.url === inputs.url && sameEvents(s.events, inputs.events)) return s;
      try {
        return recordOf(await ctx.client(inputs.site).updateEndpoint(endpointId, wanted), inputs.site);
      } catch (err) {
        if (err instanceof BillingApiError && err.status === 404) throw new Error(`${gone(endpointId)} (nothing was changed)`);
        throw err;
      }
    },

    /** The service's view: url and events changed there show as drift; an endpoint gone from the list leaves the stack. */
    async read(ctx, id, s) {
      const endpointId = endpointIdOf(id, s);
      if (endpointId === undefined) return s;
      const found = (await ctx.client(s.site).listEndpoints()).find((e) => e.id === endpointId);
      return found ? recordOf(found, s.site) : undefined;
    },

    /** The service has no DELETE: the endpoint is unsubscribed from every event (an empty list), and one already gone is fine. */
    async del(ctx, id, s) {
      // A create left pending may have made its endpoint: the one at the recorded url is the one to unsubscribe.
      const endpointId = s.pendingToken === undefined ? endpointIdOf(id, s) : (await endpointAt(ctx.client(s.site), s.url))?.id;
      if (endpointId === undefined) {
        if (s.pendingToken !== undefined)
          ctx.notice(`WebhookEndpoint: the pending create of ${s.url} made no endpoint; nothing to unsubscribe.`);
        return;
      }
      try {
        await ctx.client(s.site).updateEndpoint(endpointId, { url: s.url, events: [] });
      } catch (err) {
        if (err instanceof BillingApiError && err.status === 404) return;
        throw err;
      }
      ctx.notice(
        `WebhookEndpoint: endpoint ${endpointId} (${s.url}) is unsubscribed from every event; the service has no delete, so it stays listed.`,
      );
    },
  },
};

/** The args' TypeScript types, from the declaration; WebhookEndpointArgs gives each its docs (generated: ./generated/webhook-endpoint.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { WebhookEndpointArgs, WebhookEndpointOutputs };

/** WebhookEndpoint's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const webhookEndpointProvider = shellProvider(kind);

/** Declared endpoints of this program, by site and url: two resources with one url would fight over one endpoint. */
const declared = new Map<string, string>();

function declare(name: string, site: string | undefined, url: string): void {
  const key = JSON.stringify([site ?? "", url]);
  const other = declared.get(key);
  if (other !== undefined && other !== name) {
    throw new pulumi.RunError(
      `WebhookEndpoint "${name}" and WebhookEndpoint "${other}" both declare the url ${url} on ${site === undefined ? "the default site" : `site "${site}"`}: ` +
        "a site has one endpoint per url, so merge their events into one resource",
    );
  }
  declared.set(key, name);
}

/**
 * Refuses a second resource with a url already declared on the site, naming both. Plain values are
 * checked in the constructor: an error thrown from an apply surfaces late (tens of seconds) and as
 * "error serializing property"; an Output is checked once its value is known.
 */
function oneResourcePerUrl(name: string, args: WebhookEndpointArgs): WebhookEndpointArgs {
  const { url, site } = args;
  if (typeof url === "string" && (site === undefined || typeof site === "string")) {
    declare(name, site, url);
    return args;
  }
  const checked = pulumi.all([url, site]).apply(([u, s]) => {
    declare(name, s, u);
    return u;
  });
  return { ...args, url: checked };
}

/**
 * Where a site's webhooks go and which events go there. Create adopts the
 * site's endpoint with the same url, if there is one; delete unsubscribes it
 * from every event, as the service has no delete.
 *
 * @example
 * ```ts
 * import { WebhookEndpoint } from "pulumi-subscription-billing";
 *
 * const webhookEndpoint = new WebhookEndpoint("webhook-endpoint", {
 *   url: "https://hooks.example.com/billing",
 *   events: ["payment_failure", "subscription_state_change"],
 * });
 * ```
 */
export class WebhookEndpoint extends resourceClass<typeof kind, WebhookEndpointArgs, WebhookEndpointOutputs>(kind, oneResourcePerUrl) {}
