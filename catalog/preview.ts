import { type CatalogSnapshot, type CouponEntry, type FamilyEntry, SNAPSHOT_FORMAT, sortedRecord } from "./snapshot";

/**
 * What a program would make, read from its `pulumi preview --json --show-sames` output, as a
 * snapshot: each catalog resource's inputs, its references (a family's `familyId`, a `Product`, a
 * `Component`) turned back into handles through the preview's property dependencies (so unknown ids
 * of resources not created yet resolve too), or from `"handle:<h>"`. Such a snapshot holds only what
 * the program declares: {@link diffCatalogs} then compares only declared fields, since what a program
 * leaves out is the service's choice.
 */

/** The preview's unknown value: an output not known until the resource exists. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Inputs that are no field of the catalog object: identity, references, and how the kind runs. */
const NOT_FIELDS = new Set(["__provider", "handle", "code", "adopt", "site", "pricingChangeAcknowledged", "default"]);
const REFERENCES = new Set(["productFamily", "product", "component", "restrictedProducts", "restrictedComponents"]);

type Kind = "ProductFamily" | "Product" | "ProductPricePoint" | "Component" | "ComponentPricePoint" | "Coupon";

interface Declared {
  readonly kind: Kind;
  readonly urn: string;
  readonly inputs: Record<string, unknown>;
  readonly deps: Record<string, readonly string[]>;
}

interface PreviewStep {
  readonly op?: string;
  readonly newState?: { urn?: string; type?: string; inputs?: Record<string, unknown>; propertyDependencies?: Record<string, string[]> };
}

/** The kind of a resource type: the dynamic providers' `pulumi-nodejs:dynamic/billing:Product` or the plugin's `billing:index:Product`. */
function kindOf(type: string | undefined): Kind | undefined {
  const m =
    /(?:^pulumi-nodejs:dynamic\/billing:|^billing:index:)(ProductFamily|ProductPricePoint|Product|ComponentPricePoint|Component|Coupon)$/.exec(
      type ?? "",
    );
  return m?.[1] as Kind | undefined;
}

/** Whether parsed JSON is a `pulumi preview --json` output. */
export const isPreviewJson = (v: unknown): boolean =>
  v !== null && typeof v === "object" && Array.isArray((v as { steps?: unknown }).steps);

/** Options of {@link snapshotFromPreview}. */
export interface PreviewSnapshotOptions {
  /** Where the preview came from, for messages. */
  readonly source?: string;
}

/**
 * A snapshot of what a program declares, from its `pulumi preview --json` output (run it with
 * `--show-sames`: unchanged resources are otherwise left out of the steps). Resources the preview
 * deletes are left out. Marked `declaredOnly`, so a diff compares only what the program declares.
 */
export function snapshotFromPreview(preview: unknown, options: PreviewSnapshotOptions = {}): CatalogSnapshot {
  const where = options.source ?? "the preview";
  if (!isPreviewJson(preview)) throw new Error(`${where}: not the output of \`pulumi preview --json\` (it has no "steps")`);
  const steps = (preview as { steps: PreviewStep[] }).steps;
  const declared: Declared[] = [];
  for (const s of steps) {
    const st = s.newState;
    const kind = kindOf(st?.type);
    if (!kind || !st?.urn || s.op === "delete" || s.op === "delete-replaced" || s.op === "discard") continue;
    declared.push({ kind, urn: st.urn, inputs: st.inputs ?? {}, deps: st.propertyDependencies ?? {} });
  }
  // Each resource's key (handle or code), for the references that name it.
  const keyOf = new Map<string, string>();
  for (const d of declared) {
    const key = d.kind === "Coupon" ? d.inputs.code : d.inputs.handle;
    if (typeof key !== "string") throw new Error(`${where}: ${d.urn} has no ${d.kind === "Coupon" ? "code" : "handle"} known at preview`);
    keyOf.set(d.urn, key);
  }
  /** The handles a reference input names: its dependencies' keys for outputs, `handle:x` as x, an id as `id:<n>`. */
  const refs = (d: Declared, field: string): string[] => {
    const fromDeps = (d.deps[field] ?? []).map((u) => keyOf.get(u)).filter((k): k is string => k !== undefined);
    const raw = d.inputs[field];
    const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
    const direct = values.flatMap((v) =>
      typeof v === "string" && v.startsWith("handle:") ? [v.slice(7)] : typeof v === "number" && fromDeps.length === 0 ? [`id:${v}`] : [],
    );
    if (values.some((v) => v === UNKNOWN) && fromDeps.length === 0)
      throw new Error(`${where}: ${d.urn}'s ${field} is unknown at preview and names no resource of the program`);
    return [...new Set([...fromDeps, ...direct])].sort();
  };
  const ref = (d: Declared, field: string): string => refs(d, field)[0] ?? "";
  const fieldsOf = (d: Declared): Record<string, unknown> =>
    sortedRecord(Object.entries(d.inputs).filter(([k, v]) => !NOT_FIELDS.has(k) && !REFERENCES.has(k) && v !== undefined && v !== null));

  const families: [string, FamilyEntry][] = [];
  // Built loosely (a program's inputs, not a site's reading), typed as a snapshot once whole.
  type Owner = { [k: string]: unknown; defaultPricePoint: object; pricePoints: Record<string, unknown> };
  const products = new Map<string, Owner>();
  const components = new Map<string, Owner>();
  const coupons: [string, CouponEntry][] = [];
  const key = (d: Declared) => keyOf.get(d.urn) as string;
  for (const d of declared) {
    if (d.kind === "ProductFamily") families.push([key(d), fieldsOf(d) as unknown as FamilyEntry]);
    if (d.kind === "Product")
      products.set(key(d), {
        ...(fieldsOf(d) as object),
        productFamily: ref(d, "productFamily"),
        defaultPricePoint: {},
        pricePoints: {},
      } as never);
    if (d.kind === "Component")
      components.set(key(d), {
        ...(fieldsOf(d) as object),
        productFamily: ref(d, "productFamily"),
        defaultPricePoint: {},
        pricePoints: {},
      } as never);
    if (d.kind === "Coupon") {
      const restricted = (field: string) => {
        const list = refs(d, field);
        return list.length > 0 ? { [field]: list } : {};
      };
      coupons.push([
        key(d),
        sortedRecord(
          Object.entries({
            ...fieldsOf(d),
            productFamily: ref(d, "productFamily"),
            ...restricted("restrictedProducts"),
            ...restricted("restrictedComponents"),
          }),
        ) as unknown as CouponEntry,
      ]);
    }
  }
  for (const d of declared) {
    if (d.kind !== "ProductPricePoint" && d.kind !== "ComponentPricePoint") continue;
    const owner = d.kind === "ProductPricePoint" ? products.get(ref(d, "product")) : components.get(ref(d, "component"));
    if (!owner)
      throw new Error(
        `${where}: ${d.urn} names a ${d.kind === "ProductPricePoint" ? "product" : "component"} the program does not declare`,
      );
    // A price point declared the default is the owner's default, as a site's snapshot holds it.
    if (d.inputs.default === true) owner.defaultPricePoint = { handle: key(d), name: d.inputs.name };
    else owner.pricePoints[key(d)] = fieldsOf(d);
  }
  const sortedOwners = <T extends { pricePoints: Record<string, unknown> }>(m: Map<string, T>) =>
    sortedRecord(
      [...m].map(([k, v]) => [k, sortedRecord(Object.entries({ ...v, pricePoints: sortedRecord(Object.entries(v.pricePoints)) }))]),
    );
  return {
    format: SNAPSHOT_FORMAT,
    includesArchived: false,
    declaredOnly: true,
    families: sortedRecord(families),
    products: sortedOwners(products) as unknown as CatalogSnapshot["products"],
    components: sortedOwners(components) as unknown as CatalogSnapshot["components"],
    coupons: sortedRecord(coupons),
  };
}
