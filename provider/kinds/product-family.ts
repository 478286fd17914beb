import { z } from "zod";
import type { BillingClient } from "../../sdk/client";
import type { ProductFamily as Family } from "../../sdk/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import { adoptField, findByHandle, handleField, nameField, referencedHandle, referenceField } from "./catalog";
import type { ProductFamilyArgs, ProductFamilyOutputs } from "./generated/product-family";
import { siteInput } from "./inputs";
import { type ArgsOf, type CatalogReader, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";
import { type LifecycleState, lifecycle, Refusal, type Steps } from "./lifecycle";

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
  catalog: {
    key: "handle",
    references: {},
    runtimeInputs: ["adopt", "site"],
    defaults: {},
    noun: "product family",
    title: "Product family",
    replaced: () => [
      "create the new family (or adopt one with its handle)",
      "the old one leaves the stack and stays at the service (a family has no delete)",
    ],
    deleted: () => ["leaves the stack; the service keeps the family (it has no delete)"],
    removes: true,
  },
});

type Inputs = InputsOf<typeof kind>;

/*
 * How the kinds that take a family (their `productFamily` input) refer to one: what the input accepts, the family a
 * handle names, and what a reference to no family says. The family's knowledge, so written here once and read by
 * every kind that takes one (product, component, coupon).
 */

/** The `productFamily` input of a kind that takes a family; `rule` says what a change of family does to that kind. */
export const familyField = (rule: string) =>
  referenceField("product family").describe(`The family: a ProductFamily's \`familyId\`, an id, or "handle:<handle>". ${rule}`);

/** The family with this handle, or undefined (asked as `handle:x`, so a handle of digits is not read as an id). */
export const familyWithHandle = (client: BillingClient, handle: string): Promise<Family | undefined> =>
  findByHandle(() => client.readProductFamily(`handle:${handle}`));

/** The failure of a `productFamily` handle no family has at the site: what to declare instead. */
export const noFamilyWithHandle = (handle: string, siteLabel: string) =>
  `productFamily: no product family has the handle \`${handle}\` at site ${siteLabel}: declare a ProductFamily and pass its familyId`;

/** The family's id: a number as given, a handle looked up (the family must exist). */
export async function familyIdOf(ctx: Context, ref: number | string, site: string | undefined): Promise<number> {
  const handle = referencedHandle(ref);
  if (handle === undefined) return ref as number;
  const family = await familyWithHandle(ctx.client(site), handle);
  if (!family) throw new Error(noFamilyWithHandle(handle, ctx.siteLabel(site)));
  return family.id;
}

/** The outputs, or while a create's outcome is unknown the token to resume it with. */
const state = kind.outputs.partial().extend({
  handle: z.string(),
  args: z.object({ name: z.string(), description: z.string().optional(), adopt: z.boolean().optional() }).partial().optional(),
  pendingToken: z.string().optional(),
});
type State = z.output<typeof state>;

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

/** A family lives in its site alone; its create, and the check that it holds what is declared (it cannot be changed). */
const steps: Steps<Inputs, State & LifecycleState, Family, undefined> = {
  type: "ProductFamily",
  noun: "product family",
  key: "handle",
  where: async () => undefined,
  whereOf: async () => undefined,
  find: (ctx, handle, _, inputs) => familyWithHandle(ctx.client(inputs.site), handle),
  id: (f) => f.id,
  keyOf: (f) => f.handle,
  archivedAt: () => undefined,
  archivedRefusal: () => "",
  create: (ctx, inputs, _, token) =>
    ctx
      .client(inputs.site)
      .createProductFamily(
        { handle: inputs.handle, name: inputs.name, ...(inputs.description !== undefined ? { description: inputs.description } : {}) },
        token ? { uniquenessToken: token } : {},
      ),
  async converge(_ctx, f, inputs) {
    const fixes = mismatches(f, inputs);
    if (fixes.length > 0) throw new Refusal(cannotChange(inputs.handle, fixes));
    return f;
  },
  current: (ctx, s, id) => ctx.client(s.site).readProductFamily(id),
  record: (f, inputs) => ({
    familyId: f.id,
    name: f.name ?? null,
    description: f.description ?? null,
    createdAt: f.createdAt ?? null,
    ...(inputs.site !== undefined ? { site: inputs.site } : {}),
  }),
  archive: async () => undefined,
};

const life = lifecycle(steps, { argKeys: ["name", "description", "adopt"], idField: "familyId" });

/** What the service holds of a family, as the inputs that declare it. */
const reader: CatalogReader<Family> = {
  list: (client) => client.listProductFamilies(),
  find: (client, key) => findByHandle(() => client.readProductFamily(/^[1-9][0-9]{0,15}$/.test(key) ? Number(key) : `handle:${key}`)),
  withKey: familyWithHandle,
  id: (f) => f.id,
  key: (f) => f.handle,
  archived: () => false,
  fromService: async (f) => ({
    handle: f.handle,
    name: f.name || f.handle,
    ...(f.description ? { description: f.description } : {}),
  }),
  record: async (_client, f, inputs, _site) => ({
    ...steps.record(f, inputs as Inputs, undefined),
    handle: f.handle,
    args: life.argsOf(inputs as Inputs),
  }),
};

export const productFamily: KindModule<typeof kind, State> = {
  kind,
  reader: reader as CatalogReader,
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
      if (olds !== undefined) return { failures: [] };
      const found = await life.adoption(ctx, inputs, undefined);
      if (!found?.existing || found.failures.length > 0) return found ?? { failures: [] };
      const fixes = mismatches(found.existing, inputs);
      if (fixes.length > 0)
        return {
          failures: [
            { property: fixes[0]?.startsWith("name") ? "name" : "description", reason: cannotChange(String(inputs.handle), fixes) },
          ],
        };
      return found;
    },

    /** Its id, for the preview of an update (recorded in the checked inputs once read). */
    async stable(ctx, olds) {
      if (typeof olds.familyId === "number") return { familyId: olds.familyId };
      if (typeof olds.handle !== "string") return undefined;
      const f = await familyWithHandle(ctx.client(typeof olds.site === "string" ? olds.site : undefined), olds.handle);
      return f && { familyId: f.id };
    },

    refuse(s, news, changed) {
      const fixes = (["name", "description"] as const)
        .filter((k) => changed.includes(k) && !isUnknown(news[k]))
        .map((k) => `${k}: the service holds ${JSON.stringify((k === "name" ? s.name : s.description) ?? null)}`);
      if (fixes.length > 0) throw new Error(cannotChange(s.handle, fixes));
    },

    create: (ctx, inputs) => life.create(ctx, inputs as Inputs & Record<string, unknown>),
    async update(ctx, id, s, inputs) {
      if (s.pendingToken !== undefined)
        return life.update(ctx, id, s as State & LifecycleState, inputs as Inputs & Record<string, unknown>);
      // Only adopt can change here (refuse() stops name and description, and the rest replaces): recorded, nothing sent.
      return { ...s, args: { ...s.args, name: inputs.name, description: inputs.description, adopt: inputs.adopt } };
    },
    read: (ctx, id, s) => life.read(ctx, id, s as State & LifecycleState),

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

/** ProductFamily's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
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
export class ProductFamily extends resourceClass<typeof kind, ProductFamilyArgs, ProductFamilyOutputs>(kind) {}
