import { z } from "zod";
import type { BillingClient } from "../../sdk/client";
import { offerInput } from "../../sdk/site-config/inputs";
import type { Offer as ServiceOffer } from "../../sdk/site-config/results";
import { isUnknown } from "../engine";
import { shellProvider } from "../shell";
import { adoptField, nameField, referenceField } from "./catalog";
import type { OfferArgs, OfferOutputs } from "./generated/offer";
import { accepting, siteInput } from "./inputs";
import { type ArgsOf, type CatalogReader, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";
import { type LifecycleState, labelOf, lifecycle, Refusal, type Steps } from "./lifecycle";
import {
  type Declared,
  holdsUnknown,
  offerComponents,
  offerCoupons,
  offerDifferences,
  type Resolved,
  resolveOffer,
  Unresolved,
} from "./offer-fields";
import { type HeldOffer, offerReader } from "./offer-reader";

/**
 * What the contract says of an offer, and so what this kind does: create, list, read, archive and unarchive, and
 * no update. So nothing of an offer changes in place: a changed offer is a new one, created before the old one is
 * archived (the engine's default order), and delete archives. Whether an archived offer keeps its handle taken the
 * contract does not say; the simulator keeps it taken (the handle is the offer's address on its signup pages), and
 * so this kind assumes the real service does too. Then the new offer cannot take the old one's handle (the old one
 * holds it, archived or not, and there is no update to rename it, as a coupon's replacement does), and an offer
 * archived first would not free it either: so deleteBeforeReplace cannot help, and a change of what an offer holds
 * needs a new handle. A change under the same handle is refused at preview, naming the fields, before anything is
 * sent; a new handle replaces the offer. Its signup pages the service makes (no request sets them): they are outputs.
 */
const sdk = offerInput.shape;

const NEEDS_NEW_HANDLE =
  "the service has no update of an offer, and an offer keeps its handle after it is archived: give the changed offer a new handle (then the new offer is created and this one archived)";

const kind = declareKind({
  key: "offer",
  type: "Offer",
  summary:
    "An offer: a product at a price point, components with starting quantities and coupons, signed up to as one. The service has no update: a change needs a new handle, and replaces the offer (the new one created, then the old one archived). Delete archives it.",
  inputs: z.object({
    handle: accepting<string>({ type: "string", pattern: "^[a-z0-9][a-z0-9_-]*$", maxLength: 255 })(sdk.handle).describe(
      "The offer's handle: its identity across sites (ids differ per site). Lowercase letters, numbers, '-' and '_', starting with a letter or number (the service takes no '.' or ':' in an offer's handle). Handles are unique within a site.",
    ),
    name: nameField("The offer's name (1 to 255 characters)."),
    description: sdk.description,
    product: referenceField("product").describe(
      'The product: a Product\'s `productId`, an id, or "handle:<handle>" (resolved at apply time).',
    ),
    productPricePoint: referenceField("product price point")
      .optional()
      .describe(
        "One of the product's price points: a ProductPricePoint's `pricePointId`, an id, or \"handle:<handle>\" of a price point of the product. Left out: the product's default at the create (the service's rule), not compared afterwards.",
      ),
    components: offerComponents
      .optional()
      .describe("The components the offer includes, each with its price point and starting quantity. Order does not matter."),
    coupons: offerCoupons
      .optional()
      .describe(
        "The coupons the offer applies: each a coupon's code (a Coupon's `code`), its id (a Coupon's `couponId`), or \"handle:<code>\". Order does not matter.",
      ),
    adopt: adoptField.describe(
      "Default true: a create first looks for an offer with this handle and adopts it when it holds what is declared (unarchiving it if archived). false: an existing handle is a preview error.",
    ),
    site: siteInput,
  }),
  outputs: z.object({
    offerId: z.number().int().describe("The service's id of the offer (it differs from site to site; the handle does not)."),
    handle: z.string().describe("The handle as the service holds it."),
    name: z.string().nullable().describe("The name as the service holds it."),
    description: z.string().nullable().describe("The description as the service holds it."),
    productId: z.number().int().nullable().describe("The site's id of its product."),
    productPricePointId: z
      .number()
      .int()
      .nullable()
      .describe("The site's id of its product's price point (the default at the create, when none was declared)."),
    productFamilyId: z.number().int().nullable().describe("The id of its product's family."),
    components: z
      .array(
        z.object({
          componentId: z.number().int().describe("The component's id."),
          pricePointId: z.number().int().nullable().describe("Its price point's id."),
          startingQuantity: z.number().nullable().describe("The quantity a subscription starts with."),
        }),
      )
      .describe("Its components as the service holds them."),
    couponCodes: z.array(z.string()).describe("The codes of its coupons, sorted."),
    signupPages: z
      .array(
        z.object({
          id: z.number().int().nullable().describe("The page's id."),
          url: z.string().nullable().describe("Its public address."),
          nickname: z.string().nullable().describe("Its nickname."),
          enabled: z.boolean().nullable().describe("Whether it takes signups."),
        }),
      )
      .describe("Its public signup pages: the service makes them (made in the web UI; no request sets them)."),
    archivedAt: z.string().nullable().describe("When it was archived (ISO-8601); null while it is live."),
    site: z.string().optional().describe("The site, when one was named."),
  }),
  replaceOn: ["handle", "site"],
  refresh: true,
  onDelete:
    "archives the offer (the service never deletes one; subscriptions made from it keep what they have, and its handle stays taken)",
  example: {
    handle: "launch-bundle",
    name: "Launch bundle",
    product: "handle:launch-pro",
    components: [{ component: "handle:text-messages", startingQuantity: 5 }],
    coupons: ["SPRING25"],
  },
  catalog: {
    key: "handle",
    references: {
      product: { kind: "product", output: "productId" },
      productPricePoint: { kind: "productPricePoint", output: "pricePointId" },
      "components.component": { kind: "component", output: "componentId" },
      "components.pricePoint": { kind: "componentPricePoint", output: "pricePointId" },
      coupons: { kind: "coupon", output: "couponId" },
    },
    runtimeInputs: ["adopt", "site"],
    defaults: {},
    noun: "offer",
    title: "Offer",
    replaced: () => ["create the new offer (or adopt, or unarchive, the one holding its handle)", "archive the old one"],
    deleted: () => [
      "archived: it can no longer be signed up to; subscriptions made from it keep what they have, and its handle stays taken",
    ],
  },
});

type Inputs = InputsOf<typeof kind>;
type In = Inputs & Record<string, unknown>;
type Outputs = z.output<typeof kind.outputs>;

/** The outputs, the inputs as declared (`args`), and while a create's outcome is unknown the token to resume it with. */
const state = kind.outputs.partial().extend({
  handle: z.string(),
  args: z.record(z.string(), z.unknown()),
  pendingToken: z.string().optional(),
});
type State = z.output<typeof state>;
type St = State & LifecycleState;

/** Where an offer lives: its site; and, once resolved, the declaration as the service's create takes it. */
interface Where {
  readonly site: string | undefined;
  resolved?: Resolved;
}

/** The offer with this handle, archived or not (handles are unique among them all); undefined when none has it. */
export const offerWithHandle = async (client: BillingClient, handle: string): Promise<ServiceOffer | undefined> =>
  (await client.listOffers({ includeArchived: true })).find((o) => o.handle === handle);

const label = (handle: string, id: number) => labelOf("offer", handle, id);

/** Why an offer the site holds cannot be this declaration's: the fields it holds differently; undefined when it holds what is declared. */
const differing = (o: ServiceOffer, r: Resolved): string | undefined => {
  const fields = offerDifferences(o, r);
  if (fields.length === 0) return undefined;
  return `${label(o.handle ?? r.handle, o.id)} holds another ${fields.join(", ")} than declared, and ${NEEDS_NEW_HANDLE.replace(": give the changed", ": give this")}`;
};

/** The offer as the kind's outputs (the plugin's import records them too). */
export function outputsOf(o: ServiceOffer, site: string | undefined): Outputs {
  return {
    offerId: o.id,
    handle: o.handle ?? "",
    name: o.name ?? null,
    description: o.description ?? null,
    productId: o.productId ?? null,
    productPricePointId: o.productPricePointId ?? null,
    productFamilyId: o.productFamilyId ?? null,
    components: o.components.map((c) => ({
      componentId: c.componentId,
      pricePointId: c.pricePointId ?? null,
      startingQuantity: c.startingQuantity ?? null,
    })),
    couponCodes: o.coupons.flatMap((c) => (c.code ? [c.code] : [])).sort(),
    signupPages: o.signupPages.map((p) => ({
      id: p.id ?? null,
      url: p.url ?? null,
      nickname: p.nickname ?? null,
      enabled: p.enabled ?? null,
    })),
    archivedAt: o.archivedAt ?? null,
    ...(site !== undefined ? { site } : {}),
  };
}

const steps: Steps<In, St, ServiceOffer, Where> = {
  type: "Offer",
  noun: "offer",
  key: "handle",
  // Every reference resolved before anything is sent: one that names nothing fails naming its input.
  where: async (ctx, inputs) => ({ site: inputs.site, resolved: await resolveOffer(ctx, inputs as Declared) }),
  whereOf: async (_ctx, s) => ({ site: s.site }),
  find: (ctx, handle, where) => offerWithHandle(ctx.client(where.site), handle),
  id: (o) => o.id,
  keyOf: (o) => o.handle,
  archivedAt: (o) => o.archivedAt,
  // Only one that holds what is declared: nothing can change it once it is back.
  async unarchive(ctx, o, where) {
    const refused = where.resolved && differing(o, where.resolved);
    if (refused) throw new Refusal(`${refused} (it is archived, and was left so)`);
    return ctx.client(where.site).unarchiveOffer(o.id);
  },
  archivedRefusal: () => "",
  foreign: (o, _inputs, where) => (where.resolved ? differing(o, where.resolved) : undefined),
  create: (ctx, _inputs, where, token) =>
    ctx.client(where.site).createOffer(where.resolved as Resolved, token ? { uniquenessToken: token } : {}),
  /** Nothing to send (there is no update): an offer that holds something else than declared is refused, and left as it is. */
  async converge(ctx, o, inputs, where, created) {
    if (created) return o;
    const refused = differing(o, where.resolved ?? (await resolveOffer(ctx, inputs as Declared)));
    if (refused) throw new Refusal(`Offer \`${inputs.handle}\`: ${refused} (nothing was changed)`);
    return o;
  },
  current: (ctx, s, id) => ctx.client(s.site).readOffer(id),
  record: (o, inputs, where) => outputsOf(o, where.site ?? inputs?.site),
  async archive(ctx, o, s, where) {
    await ctx.client(where.site).archiveOffer(o.id);
    return `archived ${label(o.handle ?? s.handle, o.id)}; subscriptions made from it keep what they have, and the service keeps its handle taken.`;
  },
};

const ARG_KEYS = Object.keys(kind.inputs.shape).filter((k) => k !== "site");
const life = lifecycle(steps, { argKeys: ARG_KEYS, idField: "offerId" });

/** Failures for what the site holds under a handle a declaration is about to take: adopted, unarchived, or refused. */
async function adoptionFailures(ctx: Context, inputs: Readonly<Record<string, unknown>>, resolved: Resolved | undefined) {
  const found = await life.adoption(ctx, inputs, { site: inputs.site as string | undefined }, "handle");
  if (!found?.existing || found.failures.length > 0 || resolved === undefined) return found ?? { failures: [] };
  const fields = offerDifferences(found.existing, resolved);
  if (fields.length === 0) return found;
  const reason = differing(found.existing, resolved) as string;
  return { failures: fields.map((property) => ({ property, reason })) };
}

export const offer: KindModule<typeof kind, State> = {
  kind,
  reader: offerReader(async (_client, o, inputs, site) => ({
    ...outputsOf(o, site),
    handle: o.handle ?? String(inputs.handle),
    args: life.argsOf(inputs as In),
  })) as CatalogReader<unknown> as CatalogReader,
  operations: {
    state,
    // What an offer holds cannot change at the service (there is no update): the declaration recorded is what it holds.
    recordedInputs: (s) => ({ ...s.args, handle: s.handle, site: s.site }),
    // A pending create, or archived outside the stack: up finishes it, or unarchives it.
    unfinished: (s) => life.unfinished(s as St),

    /**
     * At preview, once the references are known: each resolves at the site (else a failure naming it); a new handle
     * (a first deploy, a replacement) is free, or held by an offer this declaration adopts; an unchanged handle holds
     * what is declared, else the change needs a new handle.
     */
    async preflight(ctx, inputs, olds) {
      if (isUnknown(inputs.site) || isUnknown(inputs.handle)) return { failures: [] };
      const client = ctx.client(inputs.site as string | undefined);
      const newHandle = olds === undefined || olds.handle !== inputs.handle || olds.site !== inputs.site;
      const held = await offerWithHandle(client, inputs.handle as string);
      let resolved: Resolved | undefined;
      if (!holdsUnknown(inputs)) {
        try {
          // Only a create is refused what the service makes no new offer of: an offer held already may name it.
          resolved = await resolveOffer(ctx, inputs as Declared, newHandle && held === undefined);
        } catch (err) {
          if (err instanceof Unresolved) return { failures: [{ property: err.property, reason: err.reason }] };
          throw err;
        }
      }
      if (newHandle) return adoptionFailures(ctx, inputs, resolved);
      if (resolved === undefined) return { failures: [] };
      const fields = held ? offerDifferences(held, resolved) : [];
      return {
        failures: fields.map((property) => ({
          property,
          reason: `${property} changed, and ${NEEDS_NEW_HANDLE}`,
        })),
      };
    },

    /** Its id, for the preview of an update (recorded in the checked inputs once read). */
    async stable(ctx, olds) {
      if (typeof olds.offerId === "number") return { offerId: olds.offerId };
      if (typeof olds.handle !== "string") return undefined;
      const o = await offerWithHandle(ctx.client(typeof olds.site === "string" ? olds.site : undefined), olds.handle);
      return o && { offerId: o.id };
    },

    create: (ctx, inputs) => life.create(ctx, inputs as In),
    /** Finishes a pending create, or unarchives an offer archived outside the stack; sends nothing else (there is no update). */
    update: (ctx, id, s, inputs) => life.update(ctx, id, s as St, inputs as In),
    read: (ctx, id, s) => life.read(ctx, id, s as St),
    del: (ctx, id, s) => life.del(ctx, id, s as St),
  },
};

/** The args' TypeScript types, from the declaration; OfferArgs gives each its docs (generated: ./generated/offer.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { HeldOffer, OfferArgs, OfferOutputs };

/**
 * A coupon code written in the program as the catalog writes a reference (`handle:<code>`), as check would: then a
 * preview's inputs name each coupon the way a site's export does (`billing-catalog diff` reads them so).
 */
const asCouponReferences = (coupons: unknown) =>
  Array.isArray(coupons) ? coupons.map((c) => (typeof c === "string" && !c.startsWith("handle:") ? `handle:${c}` : c)) : coupons;

/** Offer's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const offerProvider = shellProvider(kind);

/**
 * An offer: a product at a price point, components with starting quantities and coupons, signed up to as one.
 * Create adopts (or unarchives) an offer with the same handle that holds what is declared; the service has no
 * update, so a change needs a new handle and replaces it; delete archives it.
 *
 * @example
 * ```ts
 * import { Offer } from "pulumi-subscription-billing";
 *
 * const offer = new Offer("offer", {
 *   handle: "launch-bundle",
 *   name: "Launch bundle",
 *   product: "handle:launch-pro",
 *   components: [{ component: "handle:text-messages", startingQuantity: 5 }],
 *   coupons: ["SPRING25"],
 * });
 * ```
 */
export class Offer extends resourceClass<typeof kind, OfferArgs, OfferOutputs>(kind, (_, args) => ({
  ...args,
  coupons: asCouponReferences(args.coupons) as OfferArgs["coupons"],
})) {}
