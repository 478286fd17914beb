import { z } from "zod";
import { flag } from "../../sdk/input-values";
import {
  METAFIELD_RESOURCE_TYPES,
  type MetafieldResourceType,
  metafieldChoicesRule,
  metafieldInput,
  metafieldResourceType,
} from "../../sdk/site-config/inputs";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import { adoptField } from "./catalog";
import {
  choicesOf,
  compactScope,
  type DeclaredScope,
  fieldNamed,
  fullScope,
  type HeldField as Held,
  heldField,
  inputTypeOf,
  sameScope,
} from "./custom-field-values";
import type { CustomFieldArgs, CustomFieldOutputs } from "./generated/custom-field";
import { siteInput } from "./inputs";
import { type ArgsOf, type CatalogReader, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";
import { type LifecycleState, labelOf, lifecycle, Refusal, type Steps } from "./lifecycle";

/**
 * What the contract says of a custom field (the API's metafield), and so what this kind does: a field is named by
 * its name within its resource type (update and delete name it, the list filters by it), so the name is its key;
 * `PUT …/metafields.json` with `current_name` renames it, its data kept, so a new name changes in place (the state
 * remembers the name the field holds, to name it by); nothing moves a field to another resource type, so that
 * replaces it. Deleting a field deletes its data on every subscription or customer (`data_count`): check shows the
 * count, and a delete with data is refused unless `deleteData: true` was applied (delete reads the recorded state).
 */
const sdk = metafieldInput.shape;

const kind = declareKind({
  key: "customField",
  type: "CustomField",
  summary:
    "A custom field (the API's metafield) of subscriptions or customers. Its name, input type, values and scope change in place (a new name renames it, its data kept); a new resource type replaces it. Delete deletes it and its data, refused while it holds data unless `deleteData: true`.",
  inputs: z
    .object({
      resourceType: metafieldResourceType.describe(
        'Whose field it is: "subscriptions" or "customers". The service cannot move a field: a change replaces it (deleting the old one and its data).',
      ),
      name: sdk.name.describe(
        "The field's name: its key on every subscription or customer, and its identity across sites (unique among the resource type's fields). A new name renames the field in place; its data stays.",
      ),
      inputType: sdk.inputType,
      enum: sdk.enum.describe(
        'The values a customer chooses from: required with inputType "radio" or "dropdown", refused with "text". Their order is kept.',
      ),
      // Typed as the documented DeclaredScope, so an editor shows each flag's docs; the schema is the SDK's.
      scope: sdk.scope.describe(
        "Where the field shows; flags left out are off (the service replaces the whole scope). Left out, the service's scope is kept.",
      ) as unknown as z.ZodOptional<z.ZodType<DeclaredScope, DeclaredScope>>,
      deleteData: flag
        .optional()
        .describe(
          "Allows a delete (or a replacement) to delete the field while subscriptions or customers hold data in it, which deletes that data too. Recorded by `pulumi up`: set it and run up before removing the field. Never exported.",
        ),
      adopt: adoptField.describe(
        "Default true: a create first looks for a field of the resource type with this name and adopts it (then converges it to the declaration). false: an existing name is a preview error.",
      ),
      site: siteInput,
    })
    .superRefine(metafieldChoicesRule, { when: () => true }),
  outputs: z.object({
    customFieldId: z
      .number()
      .int()
      .describe("The service's id of the field (0 when the service answers none: the name is what names it; ids differ per site)."),
    resourceType: z.string().describe('"subscriptions" or "customers".'),
    name: z.string().describe("The name the field holds."),
    inputType: z.string().describe('"text", "radio" or "dropdown", as the service holds it.'),
    enum: z.array(z.string()).describe("The values a customer chooses from, as the service holds them (empty for a text field)."),
    scope: z
      .object({
        csv: z.boolean(),
        invoices: z.boolean(),
        statements: z.boolean(),
        portal: z.boolean(),
        publicShow: z.boolean(),
        publicEdit: z.boolean(),
        hosted: z.array(z.string()),
      })
      .describe("Where the field shows, every flag said (off when the service answers none)."),
    dataCount: z
      .number()
      .int()
      .nullable()
      .describe("How many subscriptions or customers held data in it when last read: what deleting it deletes."),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["site", "resourceType"],
  refresh: true,
  onDelete:
    "deletes the field and its data on every subscription or customer; refused while it holds data unless `deleteData: true` was applied",
  example: { resourceType: "subscriptions", name: "Region", inputType: "dropdown", enum: ["EU", "US"], scope: { csv: true, portal: true } },
  catalog: {
    key: "name",
    within: "resourceType",
    references: {},
    runtimeInputs: ["adopt", "site", "deleteData"],
    defaults: { inputType: "text" },
    noun: "custom field",
    title: "Custom field",
    replaced: () => [
      "create the new field (or adopt one with its name)",
      "delete the old one and its data (refused while it holds data unless deleteData: true was applied)",
    ],
    deleted: (before) => [
      `deleted at the service with its data on every ${before.resourceType === "customers" ? "customer" : "subscription"} (it cannot be undone); refused while it holds data unless deleteData: true was applied`,
    ],
    deletes: true,
    deletesData: {
      input: "deleteData",
      held: (get) => {
        const count = get("preview", "dataCount");
        const holders = get("resourceType") === "customers" ? "customer" : "subscription";
        return typeof count === "number" ? `its values on ${count} ${holders}${count === 1 ? "" : "s"}` : `its values on every ${holders}`;
      },
    },
  },
});

type Inputs = InputsOf<typeof kind>;
type In = Inputs & Record<string, unknown>;
interface Where {
  readonly site: string | undefined;
  readonly resourceType: MetafieldResourceType;
}

/** The outputs, the inputs as declared (`args`, `deleteData` among them: delete reads it), and a pending create's token. */
const state = kind.outputs.partial().extend({
  name: z.string(),
  resourceType: metafieldResourceType,
  args: z.record(z.string(), z.unknown()),
  pendingToken: z.string().optional(),
});
type State = z.output<typeof state>;
type St = State & LifecycleState;

const labelOfField = (f: { name: string; id: number | undefined }) => labelOf("custom field", f.name, f.id ?? "none");
const holders = (rt: string, n: number) => `${n} ${n === 1 ? rt.slice(0, -1) : rt}`;

/** What the service holds differently from the declaration, as the update that sets it (the name included: a rename). */
function differences(f: Held, inputs: Inputs) {
  const type = inputs.inputType ?? "text";
  const typeDiffers = inputTypeOf(f) !== type;
  const choicesDiffer = inputs.enum !== undefined && JSON.stringify(choicesOf(f) ?? []) !== JSON.stringify(inputs.enum);
  return {
    ...(f.name !== inputs.name ? { name: inputs.name } : {}),
    // The values go with their type: the SDK checks them against the type sent.
    ...(typeDiffers || choicesDiffer ? { inputType: type, ...(inputs.enum !== undefined ? { enum: inputs.enum } : {}) } : {}),
    ...(inputs.scope !== undefined && !sameScope(inputs.scope, f.scope) ? { scope: inputs.scope } : {}),
  };
}

const steps: Steps<In, St, Held, Where> = {
  type: "CustomField",
  noun: "custom field",
  key: "name",
  deletes: true,
  where: async (_ctx, inputs) => ({ site: inputs.site, resourceType: inputs.resourceType }),
  whereOf: async (_ctx, s) => ({ site: s.site, resourceType: s.resourceType }),
  find: (ctx, name, where) => fieldNamed(ctx.client(where.site), where.resourceType, name),
  id: (f) => f.id ?? 0,
  keyOf: (f) => f.name,
  archivedAt: () => undefined,
  archivedRefusal: () => "",
  async create(ctx, inputs, where, token) {
    const made = await ctx.client(where.site).createMetafield(
      where.resourceType,
      {
        name: inputs.name,
        ...(inputs.inputType !== undefined ? { inputType: inputs.inputType } : {}),
        ...(inputs.enum !== undefined ? { enum: inputs.enum } : {}),
        ...(inputs.scope !== undefined ? { scope: inputs.scope } : {}),
      },
      token ? { uniquenessToken: token } : {},
    );
    return { ...made, resourceType: where.resourceType };
  },
  async converge(ctx, f, inputs, where) {
    const change = differences(f, inputs);
    if (Object.keys(change).length === 0) return f;
    // Named by the name it holds now: a new name is a rename, its data kept.
    const held = await ctx.client(where.site).updateMetafield(where.resourceType, f.name, change);
    // An update's answer may leave the count out: the count read before it still says what the field holds.
    return { ...held, dataCount: held.dataCount ?? f.dataCount, resourceType: where.resourceType };
  },
  // Read by the name the state records: the name the field holds (a rename recorded it).
  current: (ctx, s, _id, where) => heldField(ctx.client(where.site), where.resourceType, s.name),
  record: (f, inputs, where) => ({
    customFieldId: f.id ?? 0,
    resourceType: where.resourceType,
    inputType: inputTypeOf(f),
    enum: [...f.enum],
    scope: fullScope(f.scope),
    dataCount: f.dataCount ?? null,
    ...(where.site !== undefined ? { site: where.site } : inputs?.site !== undefined ? { site: inputs.site } : {}),
  }),
  pending: (where) => ({ resourceType: where.resourceType }),
  async archive(ctx, f, s, where) {
    const count = f.dataCount ?? 0;
    if (count > 0 && s.args.deleteData !== true)
      throw new Refusal(
        `CustomField: ${labelOfField(f)} holds data on ${holders(where.resourceType, count)}, which deleting it would delete: nothing was deleted. ` +
          "To delete it and its data, declare deleteData: true and run `pulumi up` (which records it), then remove it.",
      );
    await ctx.client(where.site).deleteMetafield(where.resourceType, f.name);
    return `deleted ${labelOfField(f)} of ${where.resourceType}${count > 0 ? `, and its data on ${holders(where.resourceType, count)}` : ""}.`;
  },
};

const ARG_KEYS = ["inputType", "enum", "scope", "deleteData", "adopt"];
const life = lifecycle(steps, { argKeys: ARG_KEYS, idField: "customFieldId" });

/** `<resourceType>:<name>`: its key across sites (names are unique within a resource type). */
const keyOfField = (f: Held) => `${f.resourceType}:${f.name}`;

/** What the service holds of a custom field, as the inputs that declare it. */
const reader: CatalogReader<Held> = {
  // The service's own balance trackers are not fields a program can declare (it cannot create one).
  list: async (client) =>
    (
      await Promise.all(
        METAFIELD_RESOURCE_TYPES.map(async (rt) => (await client.listMetafields(rt)).map((f): Held => ({ ...f, resourceType: rt }))),
      )
    )
      .flat()
      .filter((f) => inputTypeOf(f) !== "balance_tracker"),
  // `<resourceType>:<name>`, else an id.
  async find(client, key) {
    const at = key.indexOf(":");
    const rt = metafieldResourceType.safeParse(key.slice(0, Math.max(at, 0)));
    if (rt.success) return fieldNamed(client, rt.data, key.slice(at + 1));
    if (!/^[1-9][0-9]{0,15}$/.test(key)) return undefined;
    return (await reader.list(client)).find((f) => f.id === Number(key));
  },
  id: (f) => f.id ?? 0,
  key: keyOfField,
  archived: () => false,
  fromService: async (f) => {
    const scope = compactScope(f.scope);
    const choices = choicesOf(f);
    return {
      resourceType: f.resourceType,
      name: f.name,
      inputType: inputTypeOf(f),
      ...(choices ? { enum: choices } : {}),
      ...(scope ? { scope } : {}),
    };
  },
  record: async (_client, f, inputs, site) => ({
    ...steps.record(f, inputs as In, { site, resourceType: f.resourceType }),
    name: f.name,
    args: life.argsOf(inputs as In),
  }),
};

/** A field whose data a delete would delete without `deleteData: true` applied: why, naming `property`. */
const dataRefusal = (f: Held, rt: string, what: string) =>
  `${what} deletes ${labelOfField(f)} and its data on ${holders(rt, f.dataCount ?? 0)}: declare deleteData: true and run \`pulumi up\` first (it is recorded), or keep the field`;

export const customField: KindModule<typeof kind, State> = {
  kind,
  reader: reader as CatalogReader,
  operations: {
    state,
    // The service's values for what is declared: a change made outside shows as a diff, and up restores it. What a
    // declaration leaves out (the scope, the input type of a text field) is the service's, never drift.
    recordedInputs: (s) => {
      const declaredScope = s.args.scope as DeclaredScope | undefined;
      const type = s.inputType ?? "text";
      return {
        resourceType: s.resourceType,
        name: s.name,
        inputType: s.args.inputType === undefined && type === "text" ? undefined : type,
        enum: choicesOf({ inputType: type, enum: s.enum }) ?? (s.args.enum === undefined ? undefined : []),
        scope:
          declaredScope === undefined || s.scope === undefined
            ? undefined
            : sameScope(declaredScope, s.scope)
              ? declaredScope
              : fullScope(s.scope),
        deleteData: s.args.deleteData,
        adopt: s.args.adopt,
        site: s.site,
      };
    },
    unfinished: (s) => life.unfinished(s as St),

    /**
     * At preview: the field's `dataCount` (what deleting it would delete); a first deploy adopts the name's holder or
     * is refused (adopt: false); a new name must be free; a new resource type deletes the old field, refused while it
     * holds data unless `deleteData: true` was applied.
     */
    async preflight(ctx, inputs, olds) {
      if (isUnknown(inputs.site) || isUnknown(inputs.name) || isUnknown(inputs.resourceType)) return { failures: [] };
      const site = inputs.site as string | undefined;
      const rt = inputs.resourceType as MetafieldResourceType;
      const name = inputs.name as string;
      const client = ctx.client(site);
      const fail = (property: string, reason: string) => ({ failures: [{ property, reason }] });
      const moved = olds !== undefined && olds.resourceType !== rt;
      if (olds === undefined || moved) {
        if (moved && olds.resourceType !== undefined && olds.name !== undefined) {
          const old = await fieldNamed(client, olds.resourceType, olds.name);
          if (old && (old.dataCount ?? 0) > 0 && olds.deleteData !== true)
            return fail("resourceType", dataRefusal(old, olds.resourceType, `a new resourceType replaces the field: the replacement`));
        }
        const found = await life.adoption(ctx, inputs, { site, resourceType: rt }, "resourceType");
        if (!found?.existing) return { failures: found?.failures ?? [] };
        return { failures: found.failures, preview: { ...found.preview, dataCount: found.existing.dataCount ?? null } };
      }
      const oldName = olds.name ?? name;
      if (oldName !== name && (await fieldNamed(client, rt, name)))
        return fail(
          "name",
          `the name \`${name}\` is taken by another custom field of ${rt}: choose another name (a rename needs a free one)`,
        );
      const held = await fieldNamed(client, rt, oldName);
      return { failures: [], ...(held ? { preview: { dataCount: held.dataCount ?? null } } : {}) };
    },

    /** Its id, for the preview of an update (recorded in the checked inputs once read). */
    async stable(ctx, olds) {
      if (typeof olds.customFieldId === "number") return { customFieldId: olds.customFieldId };
      const rt = metafieldResourceType.safeParse(olds.resourceType);
      if (!rt.success || typeof olds.name !== "string") return undefined;
      const f = await fieldNamed(ctx.client(typeof olds.site === "string" ? olds.site : undefined), rt.data, olds.name);
      return f && { customFieldId: f.id ?? 0 };
    },

    create: (ctx, inputs) => life.create(ctx, inputs as In),
    /** Finishes a pending create; else reads the field by the name it holds, and sends only what differs (a new name renames it). */
    update: (ctx, id, s, inputs) => life.update(ctx, id, s as St, inputs as In),
    read: (ctx, id, s) => life.read(ctx, id, s as St),
    del: (ctx: Context, id, s) => life.del(ctx, id, s as St),
  },
};

/** The args' TypeScript types, from the declaration; CustomFieldArgs gives each its docs (generated: ./generated/custom-field.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { CustomFieldArgs, CustomFieldOutputs };

/** CustomField's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const customFieldProvider = shellProvider(kind);

/**
 * A custom field of subscriptions or customers. Create adopts an existing field with the same name and converges
 * it; a new name renames it in place (its data kept); delete deletes it and its data, refused while it holds data
 * unless `deleteData: true` was applied.
 *
 * @example
 * ```ts
 * import { CustomField } from "pulumi-subscription-billing";
 *
 * const customField = new CustomField("custom-field", {
 *   resourceType: "subscriptions",
 *   name: "Region",
 *   inputType: "dropdown",
 *   enum: ["EU", "US"],
 *   scope: { csv: true, portal: true },
 * });
 * ```
 */
export class CustomField extends resourceClass<typeof kind, CustomFieldArgs, CustomFieldOutputs>(kind) {}
