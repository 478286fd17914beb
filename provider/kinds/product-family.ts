import { z } from "zod";
import { CatalogOutcomeUnknownError } from "../../sdk/errors";
import type { ProductFamily as Family } from "../../sdk/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import { adoptedNotice, adoptField, familyWithHandle, findByHandle, handleField, nameField } from "./catalog";
import type { ProductFamilyArgs, ProductFamilyOutputs } from "./generated/product-family";
import { siteInput } from "./inputs";
import { type ArgsOf, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";

const kind = declareKind({
  key: "productFamily",
  type: "ProductFamily",
  summary:
    "A product family: the folder of a site's catalog. The service can neither change nor delete one: a change fails at preview, and delete leaves it at the service.",
  inputs: z.object({
    handle: handleField("family"),
    name: nameField("The family's name (1 to 255 characters). The service cannot change it after creation."),
    description: z.string().max(4096).optional().describe("The family's description. The service cannot change it after creation."),
    adopt: adoptField,
    site: siteInput,
  }),
  outputs: z.object({
    familyId: z.number().int().describe("The service's id of the family (it differs from site to site; the handle does not)."),
    handle: z.string().describe("The family's handle."),
    name: z.string().nullable().describe("The family's name as the service holds it."),
    description: z.string().nullable().describe("The family's description as the service holds it."),
    createdAt: z.string().nullable().describe("When the service created the family (ISO-8601)."),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["site", "handle"],
  refresh: true,
  onDelete: "nothing at the service (it has no delete of a family): the family leaves the stack and stays at the service",
  example: { handle: "launch", name: "Launch" },
});

type Inputs = InputsOf<typeof kind>;

/** The outputs, or while a create's outcome is unknown the token to resume it with. */
const state = kind.outputs.partial().extend({
  handle: z.string(),
  args: z.object({ name: z.string(), description: z.string().optional(), adopt: z.boolean().optional() }).partial().optional(),
  pendingToken: z.string().optional(),
});
type State = z.output<typeof state>;

const recordOf = (f: Family, inputs: Pick<Inputs, "handle" | "site" | "name" | "description" | "adopt">): State => ({
  familyId: f.id,
  handle: f.handle ?? inputs.handle,
  name: f.name ?? null,
  description: f.description ?? null,
  createdAt: f.createdAt ?? null,
  ...(inputs.site !== undefined ? { site: inputs.site } : {}),
  args: {
    name: inputs.name,
    ...(inputs.description !== undefined ? { description: inputs.description } : {}),
    ...(inputs.adopt !== undefined ? { adopt: inputs.adopt } : {}),
  },
});

/**
 * What the service holds differently from the declaration, as fixes (a family cannot be changed there). A value
 * unknown at preview (another resource's output) is no mismatch: it may turn out to be what the service holds.
 */
function mismatches(f: { name?: string | null; description?: string | null }, want: { name?: unknown; description?: unknown }): string[] {
  const out: string[] = [];
  const declared = (v: unknown): v is string => typeof v === "string" && !isUnknown(v);
  if (declared(want.name) && (f.name ?? undefined) !== want.name) out.push(`name: the service holds ${JSON.stringify(f.name ?? null)}`);
  if (declared(want.description) && (f.description ?? "") !== want.description)
    out.push(`description: the service holds ${JSON.stringify(f.description ?? null)}`);
  return out;
}

const cannotChange = (handle: string, fixes: string[]) =>
  `product family \`${handle}\` cannot be changed: the service has no update of a family (${fixes.join("; ")}). ` +
  "Declare the values it holds, or declare a new family with a new handle and move products to it.";

async function createOrAdopt(
  ctx: Context,
  id: string | undefined,
  inputs: Inputs,
  token: string | undefined,
): Promise<{ id: string; state: State }> {
  const client = ctx.client(inputs.site);
  const existing = await familyWithHandle(client, inputs.handle);
  if (existing) {
    if (inputs.adopt === false && token === undefined)
      throw new Error(`product family \`${inputs.handle}\` (id ${existing.id}) already exists and adopt is false: nothing was created`);
    const fixes = mismatches(existing, inputs);
    if (fixes.length > 0) throw new Error(cannotChange(inputs.handle, fixes));
    if (token === undefined) adoptedNotice(ctx, inputs.site, "product family", inputs.handle, existing.id);
    return { id: id ?? String(existing.id), state: recordOf(existing, inputs) };
  }
  try {
    const created = await client.createProductFamily(
      { handle: inputs.handle, name: inputs.name, ...(inputs.description !== undefined ? { description: inputs.description } : {}) },
      token ? { uniquenessToken: token } : {},
    );
    return { id: id ?? String(created.id), state: recordOf(created, inputs) };
  } catch (err) {
    if (!(err instanceof CatalogOutcomeUnknownError)) throw err;
    throw ctx.partialFailure(
      `${err.message}. Recorded: the next \`pulumi up\` looks for family \`${inputs.handle}\` by its handle and only re-sends the create, with the same token, if it is not there.`,
      id ?? `pending-${err.uniquenessToken}`,
      {
        handle: inputs.handle,
        ...(inputs.site !== undefined ? { site: inputs.site } : {}),
        args: { name: inputs.name, description: inputs.description },
        pendingToken: err.uniquenessToken,
      },
    );
  }
}

export const productFamily: KindModule<typeof kind, State> = {
  kind,
  operations: {
    state,
    recordedInputs: (s) => ({
      handle: s.handle,
      // The service's values for what is declared: a change made outside shows as a diff, which refuse() then
      // explains. A description left out is the service's choice (it holds "" or null), never a change.
      name: s.name ?? s.args?.name,
      description: s.args?.description === undefined ? undefined : (s.description ?? ""),
      adopt: s.args?.adopt,
      site: s.site,
    }),
    unfinished: (s) => s.pendingToken !== undefined,

    /** At preview: an existing family with this handle is adopted (said in `preview.adopt`), refused (adopt: false), or differs unfixably. */
    async preflight(ctx, inputs, olds) {
      if (olds !== undefined || isUnknown(inputs.handle) || isUnknown(inputs.site)) return { failures: [] };
      const handle = inputs.handle as string;
      const existing = await familyWithHandle(ctx.client(inputs.site as string | undefined), handle);
      if (!existing) return { failures: [] };
      if (inputs.adopt === false)
        return {
          failures: [
            {
              property: "handle",
              reason: `product family \`${handle}\` (id ${existing.id}) already exists at the service and adopt is false: choose another handle, or set adopt: true to manage it`,
            },
          ],
        };
      const fixes = mismatches(existing, inputs);
      if (fixes.length > 0)
        return { failures: [{ property: fixes[0]?.startsWith("name") ? "name" : "description", reason: cannotChange(handle, fixes) }] };
      return { failures: [], preview: { adopt: { id: existing.id, handle } } };
    },

    /** Its id, for the preview of an update (recorded in the checked inputs once read). */
    async stable(ctx, olds) {
      if (typeof olds.familyId === "number") return { familyId: olds.familyId };
      if (typeof olds.handle !== "string") return undefined;
      const handle = olds.handle;
      const f = await familyWithHandle(ctx.client(typeof olds.site === "string" ? olds.site : undefined), handle);
      return f && { familyId: f.id };
    },

    refuse(s, news, changed) {
      const fixes = (["name", "description"] as const)
        .filter((k) => changed.includes(k) && !isUnknown(news[k]))
        .map((k) => `${k}: the service holds ${JSON.stringify((k === "name" ? s.name : s.description) ?? null)}`);
      if (fixes.length > 0) throw new Error(cannotChange(s.handle, fixes));
    },

    create: (ctx, inputs) => createOrAdopt(ctx, undefined, inputs, undefined),

    async update(ctx, id, s, inputs) {
      if (s.pendingToken !== undefined) return (await createOrAdopt(ctx, id, inputs, s.pendingToken)).state;
      // Only adopt can change here (refuse() stops name and description): record it.
      return { ...s, args: { ...s.args, name: inputs.name, description: inputs.description, adopt: inputs.adopt } };
    },

    async read(ctx, id, s) {
      if (s.pendingToken !== undefined) return s;
      const f = await findByHandle(() => ctx.client(s.site).readProductFamily(s.familyId ?? Number(id)));
      return f
        ? {
            ...s,
            familyId: f.id,
            handle: f.handle ?? s.handle,
            name: f.name ?? null,
            description: f.description ?? null,
            createdAt: f.createdAt ?? s.createdAt ?? null,
          }
        : undefined;
    },

    async del(ctx, id, s) {
      ctx.notice(
        `ProductFamily: family \`${s.handle}\` (id ${s.familyId ?? id}) left the stack and stays at the service, which has no delete of a family; its handle stays taken.`,
      );
    },
  },
};

/** The args' TypeScript types, from the declaration; ProductFamilyArgs gives each its docs (generated: ./generated/product-family.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { ProductFamilyArgs, ProductFamilyOutputs };

/** The provider of every ProductFamily: one instance per type (each instance costs a serialization). */
export const productFamilyProvider = shellProvider(kind);

/**
 * A product family. Create adopts an existing family with the same handle; the service can
 * neither change nor delete a family, so a change of name or description fails at preview,
 * and delete only removes it from the stack.
 *
 * @example
 * ```ts
 * import { ProductFamily } from "pulumi-subscription-billing";
 *
 * const productFamily = new ProductFamily("product-family", {
 *   handle: "launch",
 *   name: "Launch",
 * });
 * ```
 */
export class ProductFamily extends resourceClass<typeof kind, ProductFamilyArgs, ProductFamilyOutputs>(kind, productFamilyProvider) {}
