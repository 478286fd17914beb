import { PRICING_FIELDS } from "../provider/kinds/pricing-fields";
import { SERVICE_DEFAULTS } from "./defaults";
import { type CatalogResource, type CatalogType, catalogResources } from "./names";
import type { CatalogSnapshot, ComponentEntry, ComponentPricingEntry, CouponEntry, PricingEntry, ProductEntry } from "./snapshot";

/** Options of {@link catalogProgram}. */
export interface ProgramOptions {
  /** An entry of the stack's `billing:sites`, written as every resource's `site`. Default: none (the top-level site). */
  readonly site?: string;
  /** Where the resource classes are imported from. Default "pulumi-subscription-billing". */
  readonly packageName?: string;
}

/** A reference to another resource's output, written as code rather than as a value. */
class Code {
  constructor(readonly text: string) {}
}

type Value = string | number | boolean | Code | readonly Value[] | { readonly [k: string]: Value | undefined };

const LINE = 140;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value as biome formats it: objects always expanded (biome keeps an object expanded when written so), arrays on one line when they fit. */
function render(v: Value, indent: string, lead: number): string {
  if (v instanceof Code) return v.text;
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    const items = v as readonly Value[];
    if (items.length === 0) return "[]";
    const objects = items.some((x) => typeof x === "object" && !(x instanceof Code) && !Array.isArray(x));
    if (!objects) {
      const flat = `[${items.map((x) => render(x, inner, 0)).join(", ")}]`;
      // `lead` is what precedes the array on its line; the trailing "," closes it.
      if (lead + flat.length + 1 <= LINE) return flat;
    }
    return `[\n${items.map((x) => `${inner}${render(x, inner, inner.length)},\n`).join("")}${indent}]`;
  }
  // Plain loops and one string: a 5,000-object catalog renders tens of thousands of these.
  let out = "";
  const o = v as { readonly [k: string]: Value | undefined };
  for (const k in o) {
    const x = o[k];
    if (x === undefined) continue;
    const key = IDENTIFIER.test(k) ? k : JSON.stringify(k);
    const value = render(x, inner, inner.length + key.length + 2);
    // A string too long for the line goes on the next one, unless the key is short (under 5 characters), as biome lays it out.
    if (typeof x === "string" && key.length >= 5 && inner.length + key.length + 2 + value.length + 1 > LINE)
      out += `${inner}${key}:\n${inner}  ${value},\n`;
    else out += `${inner}${key}: ${value},\n`;
  }
  return out === "" ? "{}" : `{\n${out}${indent}}`;
}

/** Leaves out what equals the service's default for a field left out at create. */
function withoutDefaults<T extends object>(o: T, defaults: Readonly<Record<string, unknown>>): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && !(k in defaults && defaults[k] === v)) out[k] = v;
  return out as Partial<T>;
}

function pricing(p: PricingEntry): Record<string, Value | undefined> {
  const out: Record<string, Value | undefined> = {};
  for (const k of PRICING_FIELDS) if (p[k] !== undefined) out[k] = p[k];
  return out;
}

const tiers = (list: ComponentPricingEntry["prices"]): Value | undefined =>
  list?.map((t) => ({ startingQuantity: t.startingQuantity, endingQuantity: t.endingQuantity, unitPrice: t.unitPrice }));

/** The fields each component kind's input takes beyond the common ones (as sdk/catalog/component-inputs.ts declares them). */
const KIND_FIELDS: Record<string, readonly string[]> = {
  metered: ["unitName", "pricingScheme", "prices", "allowFractionalQuantities", "interval", "intervalUnit"],
  quantity_based: ["unitName", "pricingScheme", "prices", "allowFractionalQuantities", "interval", "intervalUnit", "recurring"],
  on_off: ["unitPrice", "interval", "intervalUnit"],
  prepaid_usage: [
    "unitName",
    "pricingScheme",
    "prices",
    "allowFractionalQuantities",
    "overagePricing",
    "rolloverPrepaidRemainder",
    "renewPrepaidAllocation",
    "expirationInterval",
    "expirationIntervalUnit",
  ],
  event_based: [
    "unitName",
    "pricingScheme",
    "prices",
    "allowFractionalQuantities",
    "interval",
    "intervalUnit",
    "eventBasedBillingMetricId",
  ],
};
const COMMON_COMPONENT_FIELDS = [
  "description",
  "taxable",
  "taxCode",
  "accountingCode",
  "itemCategory",
  "hideDateRangeOnInvoice",
  "displayOnHostedPage",
  "upgradeCharge",
  "downgradeCredit",
] as const;

/** camelCase identifier of a resource name: `price-point-pro--annual` → `pricePointProAnnual`. */
function identifierOf(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const id = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]?.toUpperCase() + w.slice(1))).join("");
  // Long handles would make long lines; the name string keeps the whole handle.
  return id.slice(0, 60);
}

/**
 * A TypeScript program declaring a snapshot's catalog with the package's dynamic providers: a
 * product names its family's `familyId`, a price point its `Product`, a component price point its
 * `Component`, a coupon its restricted products' `productId` and components' `componentId` (and
 * `"handle:<h>"` for one the program does not declare). Fields the service holds by default are left
 * out, so `pulumi preview` against the same site shows no changes: each resource adopts the object
 * with its handle. Archived objects are listed in a closing comment, not declared (a declaration would
 * restore them). Deterministic, and already formatted as biome formats it.
 */
export function catalogProgram(snapshot: CatalogSnapshot, options: ProgramOptions = {}): string {
  const resources = catalogResources(snapshot);
  const byKey = new Map<string, CatalogResource>(resources.map((r) => [`${r.type} ${r.key}`, r]));
  const variables = new Map<CatalogResource, string>();
  const takenVariables = new Set<string>();
  for (const r of resources) {
    const base = identifierOf(r.name);
    let v = base;
    for (let n = 2; takenVariables.has(v); n++) v = `${base}${n}`;
    takenVariables.add(v);
    variables.set(r, v);
  }
  const used = new Set<CatalogResource>();
  const ref = (type: CatalogType, key: string, output?: string): Value => {
    const r = byKey.get(`${type} ${key}`);
    // Not declared here (archived, or in a family without a handle): named by handle, or by the id the read kept for want of one.
    if (!r) return key.startsWith("id:") ? Number(key.slice(3)) : `handle:${key}`;
    used.add(r);
    const v = variables.get(r) as string;
    return new Code(output ? `${v}.${output}` : v);
  };
  const site = options.site !== undefined ? { site: options.site } : {};

  const argsOf = (r: CatalogResource): Record<string, Value | undefined> => {
    switch (r.type) {
      case "ProductFamily": {
        const f = snapshot.families[r.key];
        return { handle: r.key, name: f?.name, description: f?.description, ...site };
      }
      case "Product": {
        const p = snapshot.products[r.key] as ProductEntry;
        return {
          productFamily: ref("ProductFamily", p.productFamily, "familyId"),
          handle: r.key,
          name: p.name,
          description: p.description,
          accountingCode: p.accountingCode,
          taxCode: p.taxCode,
          ...withoutDefaults({ requireCreditCard: p.requireCreditCard, requestCreditCard: p.requestCreditCard }, SERVICE_DEFAULTS.product),
          ...pricing(p),
          ...site,
        };
      }
      case "ProductPricePoint": {
        const pp = snapshot.products[r.parent as string]?.pricePoints[r.handle as string] as PricingEntry & { name: string };
        return { product: ref("Product", r.parent as string), handle: r.handle, name: pp.name, ...pricing(pp), ...site };
      }
      case "Component": {
        const c = snapshot.components[r.key] as ComponentEntry;
        const all: Record<string, unknown> = { ...c, prices: tiers(c.prices) };
        const fields = [...COMMON_COMPONENT_FIELDS, ...(KIND_FIELDS[c.kind] ?? [])];
        const chosen = withoutDefaults(Object.fromEntries(fields.map((k) => [k, all[k]])), SERVICE_DEFAULTS.component);
        return {
          productFamily: ref("ProductFamily", c.productFamily, "familyId"),
          kind: c.kind,
          handle: r.key,
          name: c.name,
          ...(chosen as Record<string, Value>),
          ...site,
        };
      }
      case "ComponentPricePoint": {
        const pp = snapshot.components[r.parent as string]?.pricePoints[r.handle as string] as ComponentPricingEntry & { name: string };
        return {
          component: ref("Component", r.parent as string),
          handle: r.handle,
          name: pp.name,
          ...(withoutDefaults(
            {
              pricingScheme: pp.pricingScheme,
              prices: tiers(pp.prices),
              overagePricing: pp.overagePricing && {
                pricingScheme: pp.overagePricing.pricingScheme,
                prices: tiers(pp.overagePricing.prices),
              },
              interval: pp.interval,
              intervalUnit: pp.intervalUnit,
              useSiteExchangeRate: pp.useSiteExchangeRate,
              taxIncluded: pp.taxIncluded,
              rolloverPrepaidRemainder: pp.rolloverPrepaidRemainder,
              renewPrepaidAllocation: pp.renewPrepaidAllocation,
              expirationInterval: pp.expirationInterval,
              expirationIntervalUnit: pp.expirationIntervalUnit,
            },
            SERVICE_DEFAULTS.componentPricePoint,
          ) as Record<string, Value>),
          ...site,
        };
      }
      case "Coupon": {
        const c = snapshot.coupons[r.key] as CouponEntry;
        const { productFamily, name, restrictedProducts, restrictedComponents, archived: _, ...rest } = c;
        return {
          productFamily: ref("ProductFamily", productFamily, "familyId"),
          code: r.key,
          name,
          ...(withoutDefaults(rest, SERVICE_DEFAULTS.coupon) as Record<string, Value>),
          restrictedProducts: restrictedProducts?.map((h) => ref("Product", h, "productId")),
          restrictedComponents: restrictedComponents?.map((h) => ref("Component", h, "componentId")),
          ...site,
        };
      }
    }
  };

  // Arguments first, so that `used` knows which resources others refer to (those get a variable).
  const declared = resources.map((r) => ({ r, args: argsOf(r) }));
  const statements = declared.map(({ r, args }) => {
    const body = render(args as Value, "", 0);
    const head = used.has(r) ? `const ${variables.get(r)} = ` : "";
    const call = `new ${r.type}(${JSON.stringify(r.name)}, `;
    // biome hugs the last argument (an object) when the call's head fits on the line; else it breaks every argument.
    if (head.length + call.length + 1 <= LINE) return `${head}${call}${body});\n`;
    const inner = render(args as Value, "  ", 2);
    return `${head}new ${r.type}(\n  ${JSON.stringify(r.name)},\n  ${inner},\n);\n`;
  });

  const types = [...new Set(resources.map((r) => r.type))].sort();
  const from = JSON.stringify(options.packageName ?? "pulumi-subscription-billing");
  const oneLine = `import { ${types.join(", ")} } from ${from};`;
  const importLine =
    types.length === 0
      ? ""
      : oneLine.length <= LINE
        ? `${oneLine}\n`
        : `import {\n${types.map((t) => `  ${t},\n`).join("")}} from ${from};\n`;

  const count = resources.length;
  const header = [
    `// The catalog of a site, as \`billing-catalog export\` read it: ${count} object${count === 1 ? "" : "s"}, by handle.`,
    "// Each resource adopts the object with its handle: `pulumi up` against that site changes nothing there, and a preview",
    "// after it shows no changes; against another site, `pulumi up` creates the same catalog. Service defaults are left out.",
  ];
  const archivedLines = archivedList(snapshot);
  const footer =
    archivedLines.length === 0
      ? []
      : [
          "",
          "// Archived at the service, and not declared (a declaration would restore or replace them):",
          ...archivedLines.map((l) => `// - ${l}`),
        ];
  // Every statement and the import line end with a newline: one more between them is the blank line biome keeps.
  const body = [importLine, ...statements].filter((x) => x !== "").join("\n");
  return `${header.join("\n")}\n${body}${footer.map((l) => `${l}\n`).join("")}`;
}

/** The snapshot's archived objects, one line each, in the program's order. */
function archivedList(s: CatalogSnapshot): string[] {
  const out: string[] = [];
  for (const [h, p] of Object.entries(s.products)) {
    if (p.archived) out.push(`Product \`${h}\``);
    else for (const [pp, e] of Object.entries(p.pricePoints)) if (e.archived) out.push(`ProductPricePoint \`${h}/${pp}\``);
  }
  for (const [h, c] of Object.entries(s.components)) {
    if (c.archived) out.push(`Component \`${h}\``);
    else for (const [pp, e] of Object.entries(c.pricePoints)) if (e.archived) out.push(`ComponentPricePoint \`${h}/${pp}\``);
  }
  for (const [code, c] of Object.entries(s.coupons)) if (c.archived) out.push(`Coupon \`${code}\``);
  return out;
}
