import type { CatalogSnapshot } from "./snapshot";

/**
 * The Pulumi names of a snapshot's resources, derived from handles (`product-pro`,
 * `price-point-pro--pro-annual`) and the same for the same catalog whatever the site: the import file
 * and the program use the same names, so that a program written after an import adopts the imported
 * resources. Characters a name should not carry become `_`; two handles that then meet get `-2`, `-3`
 * in the snapshot's (sorted) order.
 */

/** The six catalog kinds, as the plugin names their types `billing:index:<Type>`. */
export type CatalogType = "ProductFamily" | "Product" | "ProductPricePoint" | "Component" | "ComponentPricePoint" | "Coupon";

/** One resource of the catalog: its type, its name, and its key in the snapshot (`product/price point` for price points). */
export interface CatalogResource {
  /** The resource's kind. */
  readonly type: CatalogType;
  /** Its Pulumi name, unique in the catalog. */
  readonly name: string;
  /** Its key in the snapshot: a handle, a code, or `<owner>/<handle>` for a price point. */
  readonly key: string;
  /** The owning product's or component's key, for price points. */
  readonly parent?: string;
  /** The price point's handle, for price points. */
  readonly handle?: string;
}

const PREFIX: Record<CatalogType, string> = {
  ProductFamily: "family",
  Product: "product",
  ProductPricePoint: "price-point",
  Component: "component",
  ComponentPricePoint: "component-price-point",
  Coupon: "coupon",
};

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, "_");

/**
 * Every resource a snapshot declares, in the program's order (families, products, their price
 * points, components, their price points, coupons; each by key), with unique names. Archived objects
 * are left out unless `includeArchived`.
 */
export function catalogResources(s: CatalogSnapshot, options: { includeArchived?: boolean } = {}): CatalogResource[] {
  const live = (o: { archived?: true }) => options.includeArchived === true || o.archived !== true;
  const taken = new Set<string>();
  const out: CatalogResource[] = [];
  const add = (type: CatalogType, stem: string, key: string, extra: { parent?: string; handle?: string } = {}) => {
    const base = `${PREFIX[type]}-${safe(stem)}`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    out.push({ type, name, key, ...extra });
  };
  for (const h of Object.keys(s.families)) add("ProductFamily", h, h);
  for (const [h, p] of Object.entries(s.products)) {
    if (!live(p)) continue;
    add("Product", h, h);
    for (const [pp, e] of Object.entries(p.pricePoints))
      if (live(e)) add("ProductPricePoint", `${h}--${pp}`, `${h}/${pp}`, { parent: h, handle: pp });
  }
  for (const [h, c] of Object.entries(s.components)) {
    if (!live(c)) continue;
    add("Component", h, h);
    for (const [pp, e] of Object.entries(c.pricePoints))
      if (live(e)) add("ComponentPricePoint", `${h}--${pp}`, `${h}/${pp}`, { parent: h, handle: pp });
  }
  for (const [code, c] of Object.entries(s.coupons)) if (live(c)) add("Coupon", code, code);
  return out;
}
