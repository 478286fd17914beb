import { z } from "zod";
import type { BillingClient } from "../../sdk/client";
import { BillingApiError } from "../../sdk/errors";
import { reasonCodeInput } from "../../sdk/site-config/inputs";
import type { ReasonCode as ServiceReasonCode } from "../../sdk/site-config/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import { adoptField } from "./catalog";
import type { ReasonCodeArgs, ReasonCodeOutputs } from "./generated/reason-code";
import { siteInput } from "./inputs";
import { type ArgsOf, type CatalogReader, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";
import { type LifecycleState, labelOf, lifecycle, type Steps } from "./lifecycle";

/**
 * What the contract says of a reason code, and so what this kind does: `PUT /reason_codes/{id}.json` changes
 * its code, description and position, so everything changes in place; `DELETE` removes it for good ("This
 * action is not reversable"), so delete deletes. Codes are unique on a site: a create adopts the one holding
 * its code, and a new code must be free.
 */
const sdk = reasonCodeInput.shape;

const kind = declareKind({
  key: "reasonCode",
  type: "ReasonCode",
  summary:
    "A churn reason code: what a customer who cancels picks from. Its code, description and position change in place; delete deletes it at the service.",
  inputs: z.object({
    code: sdk.code.describe(
      "The code (1 to 255 characters): its identity across sites, unique within a site. It changes in place (the new one must be free).",
    ),
    description: sdk.description,
    position: sdk.position.describe("The code's place in lists (1 first). Left out, the service's is kept (a new code goes last)."),
    adopt: adoptField.describe(
      "Default true: a create first looks for a reason code with this code and adopts it (then converges it to the declaration). false: an existing code is a preview error.",
    ),
    site: siteInput,
  }),
  outputs: z.object({
    reasonCodeId: z.number().int().describe("The service's id of the reason code (it differs from site to site; the code does not)."),
    code: z.string().describe("The code as the service holds it."),
    description: z.string().nullable().describe("The description as the service holds it."),
    position: z.number().int().nullable().describe("The position as the service holds it."),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["site"],
  refresh: true,
  onDelete: "deletes the reason code (the service cannot undo it; cancellations that recorded it keep their reason)",
  example: { code: "too_expensive", description: "It costs more than it is worth to us", position: 1 },
  catalog: {
    key: "code",
    references: {},
    runtimeInputs: ["adopt", "site"],
    defaults: {},
    noun: "reason code",
    title: "Reason code",
    replaced: () => ["create the new reason code (or adopt one with its code)", "delete the old one"],
    deleted: () => ["deleted at the service (it cannot be undone): customers who cancel can no longer pick it"],
    deletes: true,
  },
});

type Inputs = InputsOf<typeof kind>;
type In = Inputs & Record<string, unknown>;

/** The outputs, the inputs as declared (`args`), and while a create's outcome is unknown the token to resume it with. */
const state = kind.outputs.partial().extend({
  code: z.string(),
  args: z.object({ description: z.string(), position: z.number().int(), adopt: z.boolean() }).partial(),
  pendingToken: z.string().optional(),
});
type State = z.output<typeof state>;
type St = State & LifecycleState;

/** The reason code with this code, or undefined (codes are unique on a site; the list is the only lookup by code). */
export const reasonCodeWithCode = async (client: BillingClient, code: string): Promise<ServiceReasonCode | undefined> =>
  (await client.listReasonCodes()).find((r) => r.code === code);

/** The declared fields the service holds differently, as the update that sets them (position only when declared). */
function differences(r: ServiceReasonCode, inputs: Inputs): { code?: string; description?: string; position?: number } {
  return {
    ...(r.code !== inputs.code ? { code: inputs.code } : {}),
    ...(r.description !== inputs.description ? { description: inputs.description } : {}),
    ...(inputs.position !== undefined && r.position !== inputs.position ? { position: inputs.position } : {}),
  };
}

const steps: Steps<In, St, ServiceReasonCode, undefined> = {
  type: "ReasonCode",
  noun: "reason code",
  key: "code",
  deletes: true,
  where: async () => undefined,
  whereOf: async () => undefined,
  find: (ctx, code, _, inputs) => reasonCodeWithCode(ctx.client(inputs.site), code),
  id: (r) => r.id,
  keyOf: (r) => r.code,
  archivedAt: () => undefined,
  archivedRefusal: () => "",
  create: (ctx, inputs, _, token) =>
    ctx.client(inputs.site).createReasonCode(
      {
        code: inputs.code,
        description: inputs.description,
        ...(inputs.position !== undefined ? { position: inputs.position } : {}),
      },
      token ? { uniquenessToken: token } : {},
    ),
  async converge(ctx, r, inputs) {
    const change = differences(r, inputs);
    if (Object.keys(change).length === 0) return r;
    return ctx.client(inputs.site).updateReasonCode(r.id, change);
  },
  current: (ctx, s, id) => ctx.client(s.site).readReasonCode(id),
  record: (r, inputs) => ({
    reasonCodeId: r.id,
    description: r.description ?? null,
    position: r.position ?? null,
    ...(inputs?.site !== undefined ? { site: inputs.site } : {}),
  }),
  async archive(ctx, r, s) {
    try {
      await ctx.client(s.site).deleteReasonCode(r.id);
    } catch (err) {
      // Gone meanwhile: what delete asked for.
      if (err instanceof BillingApiError && err.status === 404) return undefined;
      throw err;
    }
    return `deleted ${labelOf("reason code", r.code ?? s.code, r.id)}.`;
  },
};

const life = lifecycle(steps, { argKeys: ["description", "position", "adopt"], idField: "reasonCodeId" });

/** What the service holds of a reason code, as the inputs that declare it. */
const reader: CatalogReader<ServiceReasonCode> = {
  list: (client) => client.listReasonCodes(),
  // A code first (a code of digits is a code), then an id.
  async find(client, key) {
    const all = await client.listReasonCodes();
    return all.find((r) => r.code === key) ?? (/^[1-9][0-9]{0,15}$/.test(key) ? all.find((r) => r.id === Number(key)) : undefined);
  },
  id: (r) => r.id,
  key: (r) => r.code,
  archived: () => false,
  fromService: async (r) => ({
    code: r.code,
    description: r.description,
    ...(r.position !== undefined ? { position: r.position } : {}),
  }),
  record: async (_client, r, inputs, site) => ({
    ...steps.record(r, { ...(inputs as In), site }, undefined),
    code: r.code,
    args: life.argsOf(inputs as In),
  }),
};

export const reasonCode: KindModule<typeof kind, State> = {
  kind,
  reader: reader as CatalogReader,
  operations: {
    state,
    // The service's values for what is declared: a change made outside shows as a diff, and up restores it. A
    // position left out is the service's choice, never a change.
    recordedInputs: (s) => ({
      code: s.code,
      description: s.description ?? s.args.description,
      position: s.args.position === undefined ? undefined : (s.position ?? undefined),
      adopt: s.args.adopt,
      site: s.site,
    }),
    unfinished: (s) => life.unfinished(s as St),

    /** At preview: a first deploy adopts the code's holder or is refused (adopt: false); a new code in place must be free. */
    async preflight(ctx, inputs, olds) {
      if (isUnknown(inputs.site) || isUnknown(inputs.code)) return { failures: [] };
      if (olds === undefined) {
        const found = await life.adoption(ctx, inputs, undefined);
        return { failures: found?.failures ?? [], ...(found?.preview ? { preview: found.preview } : {}) };
      }
      const code = inputs.code as string;
      if (olds.code === code) return { failures: [] };
      const holder = await reasonCodeWithCode(ctx.client(inputs.site as string | undefined), code);
      if (holder)
        return {
          failures: [
            {
              property: "code",
              reason: `the code \`${code}\` is taken by ${labelOf("reason code", code, holder.id)}: choose another code`,
            },
          ],
        };
      return { failures: [] };
    },

    /** Its id, for the preview of an update (recorded in the checked inputs once read). */
    async stable(ctx, olds) {
      if (typeof olds.reasonCodeId === "number") return { reasonCodeId: olds.reasonCodeId };
      if (typeof olds.code !== "string") return undefined;
      const r = await reasonCodeWithCode(ctx.client(typeof olds.site === "string" ? olds.site : undefined), olds.code);
      return r && { reasonCodeId: r.id };
    },

    create: (ctx, inputs) => life.create(ctx, inputs as In),
    /** Finishes a pending create; else reads the code first, so that a repeated update sends only what still differs. */
    update: (ctx, id, s, inputs) => life.update(ctx, id, s as St, inputs as In),
    read: (ctx, id, s) => life.read(ctx, id, s as St),
    del: (ctx, id, s) => life.del(ctx, id, s as St),
  },
};

/** The args' TypeScript types, from the declaration; ReasonCodeArgs gives each its docs (generated: ./generated/reason-code.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { ReasonCodeArgs, ReasonCodeOutputs };

/** ReasonCode's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const reasonCodeProvider = shellProvider(kind);

/**
 * A churn reason code. Create adopts an existing code and converges it; its code, description and position
 * change in place; delete deletes it at the service.
 *
 * @example
 * ```ts
 * import { ReasonCode } from "pulumi-subscription-billing";
 *
 * const reasonCode = new ReasonCode("reason-code", {
 *   code: "too_expensive",
 *   description: "It costs more than it is worth to us",
 *   position: 1,
 * });
 * ```
 */
export class ReasonCode extends resourceClass<typeof kind, ReasonCodeArgs, ReasonCodeOutputs>(kind) {}
