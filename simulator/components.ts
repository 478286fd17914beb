import type { Catalog } from "./catalog";
import { defaultOf, PricePoints } from "./price-points";
import type {
  ComponentInput,
  ComponentKind,
  ComponentPricePointInput,
  ComponentPricePointRecord,
  ComponentRecord,
  PriceInput,
  PriceRecord,
  PricingScheme,
  PricingSchemeRecord,
  ProductFamilyRecord,
} from "./records";
import { byRef } from "./refs";
import { SiteError } from "./site-error";
import { hasProblems, type Problems, Refusal, refuse } from "./wire-catalog";
import {
  bracketProblems,
  COMPONENT_HANDLE_TAKEN,
  COMPONENT_NAME_TAKEN,
  COMPONENT_NOT_ARCHIVABLE,
  type ComponentCreateBody,
  type ComponentPricePointBody,
  type ComponentPricePointUpdateBody,
  type ComponentUpdateBody,
  decimalText,
  FOREIGN_PRICE,
  type InlinePricePointBody,
  NO_BRACKETS,
  PRICE_POINT_HANDLE_TAKEN,
  type PriceBody,
} from "./wire-components";

/** The next id of each sequence the components hand out. */
export interface ComponentIds {
  component: number;
  componentPricePoint: number;
  price: number;
}

export interface ComponentSnapshot {
  components: ComponentRecord[];
  next: ComponentIds;
}

/** The name the service gives a component's first price point (every published component's `default_price_point_name`). */
export const ORIGINAL = "Original";

/**
 * The site's components and their price points. Seeding calls (`add*`) take
 * what they are given as the web UI would have made it, and throw on misuse
 * (tiers are checked as the API checks them); the API's calls refuse with a
 * `Refusal` (422, shaped by the handler) or a `SiteError` (404).
 */
export class Components {
  readonly #now: () => string;
  readonly #catalog: Catalog;
  readonly #components = new Map<number, ComponentRecord>();
  // Distinct id ranges per kind make a mixed-up id fail loudly in tests.
  #next: Omit<ComponentIds, "componentPricePoint"> = { component: 30001, price: 50001 };
  /** The components' price points (their lookup, lifecycle and ids: the same code as products'). */
  readonly pricePoints: PricePoints<ComponentPricePointRecord>;

  constructor(nowIso: () => string, catalog: Catalog) {
    this.#now = nowIso;
    this.#catalog = catalog;
    this.pricePoints = new PricePoints({ what: "component price point", owner: "component", firstId: 40001, now: nowIso });
  }

  get isEmpty(): boolean {
    return this.#components.size === 0;
  }

  // ---- seeding ----------------------------------------------------------

  add(c: ComponentInput): ComponentRecord {
    const family = this.#seedFamily(c);
    const handle = c.handle ?? null;
    if (handle === "") throw new Error("addComponent: handle must be non-empty or null");
    if (handle !== null && this.#byHandle(handle)) throw new Error(`addComponent: handle '${handle}' exists`);
    if (c.kind === "event_based" && c.eventBasedBillingMetricId === undefined)
      throw new Error("addComponent: an event based component needs eventBasedBillingMetricId");
    const given = c.pricePoints ?? [];
    if (given.filter((pp) => pp.default).length > 1) throw new Error("addComponent: at most one default price point");
    if (given.some((pp) => pp.default && pp.archived)) throw new Error("addComponent: the default price point cannot be archived");
    const handles = given.map((pp) => pp.handle).filter((h) => h !== undefined);
    if (new Set(handles).size !== handles.length) throw new Error("addComponent: price point handles must be distinct");
    // The web UI holds names to the API's rule (COMPONENT_NAME_TAKEN): a seed the service could not hold is a mistake.
    const named = c.name ?? handle;
    const holder = named !== null && !c.archived ? this.#nameHolder(family.id, named) : undefined;
    if (holder) throw new Error(`addComponent: name '${named}' is held by live component ${holder.id} of the family`);
    const id = this.#claimComponent(c.id);
    const name = named ?? `Component ${id}`;
    const now = this.#now();
    const scheme = c.pricingScheme ?? "per_unit";
    const brackets = c.prices ?? [{ startingQuantity: c.kind === "on_off" ? 0 : 1, unitPrice: c.unitPrice ?? 1 }];
    const record: ComponentRecord = {
      id,
      kind: c.kind,
      familyId: family.id,
      handle,
      name,
      unitName: c.unitName ?? (c.kind === "on_off" ? "on/off" : "unit"),
      description: c.description ?? null,
      taxable: c.taxable ?? false,
      taxCode: c.taxCode ?? null,
      accountingCode: c.accountingCode ?? null,
      itemCategory: c.itemCategory ?? null,
      displayOnHostedPage: c.displayOnHostedPage ?? false,
      allowFractionalQuantities: c.allowFractionalQuantities ?? false,
      hideDateRangeOnInvoice: c.hideDateRangeOnInvoice ?? false,
      recurring: c.recurring ?? recurringByDefault(c.kind),
      upgradeCharge: c.upgradeCharge ?? null,
      downgradeCredit: c.downgradeCredit ?? null,
      eventBasedBillingMetricId: c.kind === "event_based" ? (c.eventBasedBillingMetricId ?? null) : null,
      publicSignupPageIds: [],
      archivedAt: c.archived ? now : null,
      pricePoints: [],
      createdAt: now,
      updatedAt: now,
    };
    const made = (pp: ComponentPricePointInput, isDefault: boolean): ComponentPricePointRecord => {
      const s = pp.pricingScheme ?? scheme;
      // The component's brackets are the default's; another price point without its own takes copies (new ids).
      const list =
        pp.prices ??
        (pp.unitPrice !== undefined
          ? [{ startingQuantity: brackets[0].startingQuantity, unitPrice: pp.unitPrice }]
          : isDefault
            ? brackets
            : brackets.map(({ id: _id, ...b }) => b));
      // Likewise the overage tiers: the component's go to its default as given, to another price point as copies.
      const overage =
        pp.overagePricing !== undefined
          ? pp.overagePricing
          : c.overagePricing && !isDefault
            ? { ...c.overagePricing, prices: c.overagePricing.prices.map(({ id: _id, ...b }) => b) }
            : (c.overagePricing ?? null);
      const name = pp.name ?? (isDefault && pp.handle === undefined ? ORIGINAL : (pp.handle ?? ORIGINAL));
      return this.pricePoints.make({ id: pp.id, handle: pp.handle, name, isDefault, archived: pp.archived, at: now }, () => ({
        ...this.#seedScheme(s, list, `price point '${pp.handle ?? ORIGINAL}'`),
        interval: pp.interval !== undefined ? pp.interval : (c.interval ?? null),
        intervalUnit: pp.intervalUnit !== undefined ? pp.intervalUnit : (c.intervalUnit ?? null),
        useSiteExchangeRate: pp.useSiteExchangeRate ?? true,
        taxIncluded: pp.taxIncluded ?? false,
        overagePricing:
          c.kind === "prepaid_usage" && overage ? this.#seedScheme(overage.pricingScheme, overage.prices, "overage pricing") : null,
        ...this.#prepaidTerms(c.kind, { ...c, ...definedOnly(pp) }),
      }));
    };
    const hasDefault = given.some((pp) => pp.default);
    if (!hasDefault) record.pricePoints.push(made({}, true));
    for (const pp of given) record.pricePoints.push(made(pp, pp.default === true));
    this.#components.set(id, record);
    return structuredClone(record);
  }

  /** A price point made elsewhere (the web UI) on an existing component, by the component's handle or id. */
  addPricePoint(ref: { componentId?: number; componentHandle?: string }, pp: ComponentPricePointInput): ComponentPricePointRecord {
    const c =
      ref.componentId !== undefined
        ? this.#components.get(ref.componentId)
        : ref.componentHandle !== undefined
          ? this.#byHandle(ref.componentHandle)
          : undefined;
    if (!c)
      throw new Error(
        `addComponentPricePoint: no component ${ref.componentHandle !== undefined ? `has handle '${ref.componentHandle}'` : `has id ${ref.componentId}`}`,
      );
    if (pp.handle !== undefined && this.pricePoints.holds(c, pp.handle))
      throw new Error(`addComponentPricePoint: price point handle '${pp.handle}' exists on component ${c.id}`);
    if (pp.default && pp.archived) throw new Error("addComponentPricePoint: the default price point cannot be archived");
    const current = defaultComponentPricePoint(c);
    const now = this.#now();
    const name = pp.name ?? pp.handle ?? "Price point";
    const record = this.pricePoints.make({ id: pp.id, handle: pp.handle, name, isDefault: false, archived: pp.archived, at: now }, () => ({
      ...this.#seedScheme(
        pp.pricingScheme ?? current.pricingScheme,
        pp.prices ??
          (pp.unitPrice !== undefined
            ? [{ startingQuantity: current.prices[0]?.startingQuantity ?? 1, unitPrice: pp.unitPrice }]
            : current.prices.map((p) => ({
                startingQuantity: p.startingQuantity,
                endingQuantity: p.endingQuantity,
                unitPrice: p.unitPrice,
              }))),
        `price point '${pp.handle ?? "(no handle)"}'`,
      ),
      interval: pp.interval ?? null,
      intervalUnit: pp.intervalUnit ?? null,
      useSiteExchangeRate: pp.useSiteExchangeRate ?? true,
      taxIncluded: pp.taxIncluded ?? false,
      overagePricing:
        c.kind === "prepaid_usage"
          ? pp.overagePricing
            ? this.#seedScheme(pp.overagePricing.pricingScheme, pp.overagePricing.prices, "overage pricing")
            : current.overagePricing
              ? structuredClone(current.overagePricing)
              : null
          : null,
      ...this.#prepaidTerms(c.kind, definedOnly(pp)),
    }));
    c.pricePoints.push(record);
    if (pp.default) this.pricePoints.promote(c, record);
    c.updatedAt = now;
    return structuredClone(record);
  }

  #seedFamily(c: { familyId?: number; familyHandle?: string }): ProductFamilyRecord {
    if ((c.familyId === undefined) === (c.familyHandle === undefined))
      throw new Error("addComponent: give familyId or familyHandle (one of them)");
    const f = this.#catalog.families().find((x) => (c.familyId !== undefined ? x.id === c.familyId : x.handle === c.familyHandle));
    if (!f)
      throw new Error(
        `addComponent: no product family has ${c.familyId !== undefined ? `id ${c.familyId}` : `handle '${c.familyHandle}'`}`,
      );
    return f;
  }

  #seedScheme(scheme: PricingScheme, list: readonly PriceInput[], what: string): PricingSchemeRecord {
    const brackets = list.map((p) => {
      const unit = decimalText(p.unitPrice);
      if (unit === undefined) throw new Error(`addComponent: ${what}: unit price ${String(p.unitPrice)} is not a price`);
      return { id: p.id, startingQuantity: p.startingQuantity, endingQuantity: p.endingQuantity ?? null, unitPrice: unit };
    });
    const problems = bracketProblems(scheme, brackets);
    if (hasProblems(problems)) throw new Error(`addComponent: ${what}: ${Object.values(problems).flat().join("; ")}`);
    return { pricingScheme: scheme, prices: brackets.map((b) => ({ ...b, id: this.#claimPrice(b.id) })) };
  }

  #prepaidTerms(
    kind: ComponentKind,
    o: {
      rolloverPrepaidRemainder?: boolean | null;
      renewPrepaidAllocation?: boolean | null;
      expirationInterval?: number | null;
      expirationIntervalUnit?: "day" | "month" | null;
    },
  ) {
    const prepaid = kind === "prepaid_usage";
    return {
      rolloverPrepaidRemainder: prepaid ? (o.rolloverPrepaidRemainder ?? false) : null,
      renewPrepaidAllocation: prepaid ? (o.renewPrepaidAllocation ?? false) : null,
      expirationInterval: prepaid ? (o.expirationInterval ?? null) : null,
      expirationIntervalUnit: prepaid ? (o.expirationIntervalUnit ?? null) : null,
    };
  }

  // ---- components ----------------------------------------------------------

  /**
   * POST /product_families/{id}/<kind>_components.json. The default price
   * point is "Original" (the published examples' `default_price_point_name`),
   * from the component's scheme and brackets (or `unit_price`, one open bracket,
   * for per_unit); `price_points` are made after it as catalog price points.
   * Handles are unique within the site, archived components' included (the
   * contract says "a unique identifier"; where the service scopes it is not
   * published: the site, as for products). Names are unique among the family's
   * live components (COMPONENT_NAME_TAKEN says why that scope), refused after
   * the handle, as the contract's example lists them.
   */
  create(family: ProductFamilyRecord, kind: ComponentKind, b: ComponentCreateBody): ComponentRecord {
    const problems: Problems = {};
    const add = (key: string, message: string) => {
      problems[key] ??= [];
      if (!problems[key].includes(message)) problems[key].push(message);
    };
    if (b.handle != null && this.#byHandle(b.handle)) add("handle", COMPONENT_HANDLE_TAKEN);
    if (this.#nameHolder(family.id, b.name)) add("name", COMPONENT_NAME_TAKEN);
    const scheme: PricingScheme = b.pricing_scheme ?? "per_unit";
    const unit = b.unit_price ?? (b.price_in_cents !== undefined ? decimalText(String(Number(b.price_in_cents) / 100)) : undefined);
    const start = kind === "on_off" ? 0 : 1;
    const list: PriceBody[] =
      b.prices ?? (scheme === "per_unit" && unit !== undefined ? [{ starting_quantity: start, unit_price: unit }] : []);
    const main = bracketsOf(list);
    for (const [k, v] of Object.entries(bracketProblems(scheme, main))) for (const m of v) add(k, m);
    let overage: PricingSchemeRecord | null = null;
    if (kind === "prepaid_usage" && b.overage_pricing) {
      const o = bracketsOf(b.overage_pricing.prices ?? []);
      for (const [k, v] of Object.entries(bracketProblems(b.overage_pricing.pricing_scheme, o)))
        for (const m of v) add(`overage_pricing.${k}`, m);
      overage = { pricingScheme: b.overage_pricing.pricing_scheme, prices: o.map((x) => ({ id: 0, ...x })) };
    }
    const inline = b.price_points ?? [];
    const inlineHandles = new Set<string>();
    inline.forEach((pp, i) => {
      if (pp.handle !== undefined) {
        if (inlineHandles.has(pp.handle)) add(`price_points[${i}].handle`, PRICE_POINT_HANDLE_TAKEN);
        inlineHandles.add(pp.handle);
      }
      for (const [k, v] of Object.entries(bracketProblems(pp.pricing_scheme, bracketsOf(pp.prices ?? []))))
        for (const m of v) add(`price_points[${i}].${k}`, m);
      if (kind === "prepaid_usage" && pp.overage_pricing)
        for (const [k, v] of Object.entries(
          bracketProblems(pp.overage_pricing.pricing_scheme, bracketsOf(pp.overage_pricing.prices ?? [])),
        ))
          for (const m of v) add(`price_points[${i}].overage_pricing.${k}`, m);
    });
    if (hasProblems(problems)) throw new Refusal(problems);
    const id = this.#claimComponent(undefined);
    const now = this.#now();
    const record: ComponentRecord = {
      id,
      kind,
      familyId: family.id,
      handle: b.handle ?? null,
      name: b.name,
      unitName: b.unit_name ?? (kind === "on_off" ? "on/off" : "unit"),
      description: b.description ?? null,
      taxable: b.taxable ?? false,
      taxCode: b.tax_code ?? null,
      accountingCode: b.accounting_code ?? null,
      itemCategory: b.item_category ?? null,
      displayOnHostedPage: b.display_on_hosted_page ?? false,
      allowFractionalQuantities: b.allow_fractional_quantities ?? false,
      hideDateRangeOnInvoice: b.hide_date_range_on_invoice ?? false,
      recurring: kind === "quantity_based" ? (b.recurring ?? true) : recurringByDefault(kind),
      upgradeCharge: b.upgrade_charge ?? null,
      downgradeCredit: b.downgrade_credit ?? null,
      eventBasedBillingMetricId: kind === "event_based" ? (b.event_based_billing_metric_id ?? null) : null,
      publicSignupPageIds: b.public_signup_page_ids ?? [],
      archivedAt: null,
      pricePoints: [],
      createdAt: now,
      updatedAt: now,
    };
    const prepaid = this.#prepaidTerms(kind, {
      rolloverPrepaidRemainder: b.rollover_prepaid_remainder,
      renewPrepaidAllocation: b.renew_prepaid_allocation,
      expirationInterval: b.expiration_interval,
      expirationIntervalUnit: b.expiration_interval_unit,
    });
    record.pricePoints.push(
      this.#newPricePoint({
        name: ORIGINAL,
        handle: null,
        isDefault: true,
        scheme: { pricingScheme: scheme, prices: main.map((x) => ({ id: this.#next.price++, ...x })) },
        interval: b.interval ?? null,
        intervalUnit: b.interval_unit ?? null,
        overagePricing: overage
          ? { pricingScheme: overage.pricingScheme, prices: overage.prices.map((x) => ({ ...x, id: this.#next.price++ })) }
          : null,
        prepaid,
      }),
    );
    for (const pp of inline) record.pricePoints.push(this.#inline(kind, pp, prepaid));
    this.#components.set(id, record);
    return record;
  }

  /**
   * An inline price point of a component create. A prepaid usage component's
   * (`Prepaid Component Price Point`) has its own `overage_pricing` (none when
   * not given: the item does not require it); the item has no rollover,
   * renewal or expiration, so it takes the component's (not published; as
   * `addComponent` gives its other price points the component's).
   */
  #inline(
    kind: ComponentKind,
    pp: InlinePricePointBody,
    terms: Pick<
      ComponentPricePointRecord,
      "rolloverPrepaidRemainder" | "renewPrepaidAllocation" | "expirationInterval" | "expirationIntervalUnit"
    >,
  ): ComponentPricePointRecord {
    const overage = kind === "prepaid_usage" ? pp.overage_pricing : undefined;
    return this.#newPricePoint({
      name: pp.name,
      handle: pp.handle ?? null,
      isDefault: false,
      scheme: { pricingScheme: pp.pricing_scheme, prices: bracketsOf(pp.prices ?? []).map((x) => ({ id: this.#next.price++, ...x })) },
      interval: pp.interval ?? null,
      intervalUnit: pp.interval_unit ?? null,
      overagePricing: overage
        ? {
            pricingScheme: overage.pricing_scheme,
            prices: bracketsOf(overage.prices ?? []).map((x) => ({ id: this.#next.price++, ...x })),
          }
        : null,
      prepaid: terms,
    });
  }

  /** `{component_id}`: the id, or `handle:<handle>`. 404 when there is none. */
  component(ref: string): ComponentRecord {
    const c = byRef(
      ref,
      (id) => this.#components.get(id),
      (h) => this.#byHandle(h),
    );
    if (!c) throw new SiteError(404, "Component not found");
    return c;
  }

  /** A component under the family the path names: another family's is not found there. */
  inFamily(family: ProductFamilyRecord, ref: string): ComponentRecord {
    const c = this.component(ref);
    if (c.familyId !== family.id) throw new SiteError(404, "Component not found");
    return c;
  }

  byHandle(handle: string): ComponentRecord {
    const c = this.#byHandle(handle);
    if (!c) throw new SiteError(404, "Component not found");
    return c;
  }

  find(id: number): ComponentRecord | undefined {
    return this.#components.get(id);
  }

  /** The live component of the family with this name: the one a create or rename to it is refused for (COMPONENT_NAME_TAKEN). */
  #nameHolder(familyId: number, name: string): ComponentRecord | undefined {
    return this.list({ familyId, includeArchived: false }).find((c) => c.name === name);
  }

  findByHandle(handle: string): ComponentRecord | undefined {
    return this.#byHandle(handle);
  }

  /** Oldest first; archived ones only when asked for. */
  list(o: { familyId?: number; includeArchived: boolean; ids?: readonly number[] }): ComponentRecord[] {
    return [...this.#components.values()]
      .filter(
        (c) =>
          (o.familyId === undefined || c.familyId === o.familyId) &&
          (o.includeArchived || c.archivedAt === null) &&
          (o.ids === undefined || o.ids.includes(c.id)),
      )
      .sort((a, b) => a.id - b.id);
  }

  /**
   * PUT /components/{id}.json and its family twin: the fields `Update Component` names. An archived component can be
   * renamed; a live one's new name must be no other live component's of its family (as at create).
   */
  update(c: ComponentRecord, b: ComponentUpdateBody): ComponentRecord {
    const problems: Problems = {};
    if (b.handle !== undefined && b.handle !== c.handle && this.#byHandle(b.handle)) problems.handle = [COMPONENT_HANDLE_TAKEN];
    if (b.name !== undefined && b.name !== c.name && c.archivedAt === null && this.#nameHolder(c.familyId, b.name))
      problems.name = [COMPONENT_NAME_TAKEN];
    if (hasProblems(problems)) throw new Refusal(problems);
    if (b.handle !== undefined) c.handle = b.handle;
    if (b.name !== undefined) c.name = b.name;
    if (b.description !== undefined) c.description = b.description;
    if (b.accounting_code !== undefined) c.accountingCode = b.accounting_code;
    if (b.taxable !== undefined) c.taxable = b.taxable;
    if (b.tax_code !== undefined) c.taxCode = b.tax_code;
    if (b.item_category !== undefined) c.itemCategory = b.item_category;
    if (b.display_on_hosted_page !== undefined) c.displayOnHostedPage = b.display_on_hosted_page;
    if (b.upgrade_charge !== undefined) c.upgradeCharge = b.upgrade_charge;
    if (b.downgrade_credit !== undefined) c.downgradeCredit = b.downgrade_credit;
    c.updatedAt = this.#now();
    return c;
  }

  /** DELETE …/components/{id}.json: archived, never deleted; it keeps its handle. Twice is the published 422. */
  archive(c: ComponentRecord): ComponentRecord {
    if (c.archivedAt !== null) refuse("base", COMPONENT_NOT_ARCHIVABLE);
    c.archivedAt = this.#now();
    c.updatedAt = c.archivedAt;
    return c;
  }

  // ---- price points --------------------------------------------------------

  /**
   * POST /components/{id}/price_points.json. A prepaid usage component's
   * price point needs its overage pricing (the contract's prepaid schema
   * requires it). An archived component takes none (not published: as for an
   * archived product, a price point made on it could only be a mistake).
   */
  createPricePoint(c: ComponentRecord, b: ComponentPricePointBody): ComponentPricePointRecord {
    const problems: Problems = {};
    const add = (key: string, message: string) => {
      problems[key] ??= [];
      if (!problems[key].includes(message)) problems[key].push(message);
    };
    if (c.archivedAt !== null) add("base", `Component '${c.handle ?? c.id}' is archived: it takes no new price points.`);
    if (b.handle !== undefined && this.pricePoints.holds(c, b.handle)) add("handle", PRICE_POINT_HANDLE_TAKEN);
    const main = bracketsOf(b.prices ?? []);
    for (const [k, v] of Object.entries(bracketProblems(b.pricing_scheme, main))) for (const m of v) add(k, m);
    let overage: PricingSchemeRecord | null = null;
    if (c.kind === "prepaid_usage") {
      if (!b.overage_pricing) add("overage_pricing", "Overage pricing: cannot be blank.");
      else {
        const o = bracketsOf(b.overage_pricing.prices ?? []);
        for (const [k, v] of Object.entries(bracketProblems(b.overage_pricing.pricing_scheme, o)))
          for (const m of v) add(`overage_pricing.${k}`, m);
        overage = { pricingScheme: b.overage_pricing.pricing_scheme, prices: o.map((x) => ({ id: 0, ...x })) };
      }
    }
    if (hasProblems(problems)) throw new Refusal(problems);
    const pp = this.#newPricePoint({
      name: b.name,
      handle: b.handle ?? null,
      isDefault: false,
      scheme: { pricingScheme: b.pricing_scheme, prices: main.map((x) => ({ id: this.#next.price++, ...x })) },
      interval: b.interval ?? null,
      intervalUnit: b.interval_unit ?? null,
      useSiteExchangeRate: b.use_site_exchange_rate,
      taxIncluded: b.tax_included,
      overagePricing: overage
        ? { pricingScheme: overage.pricingScheme, prices: overage.prices.map((x) => ({ ...x, id: this.#next.price++ })) }
        : null,
      prepaid: this.#prepaidTerms(c.kind, {
        rolloverPrepaidRemainder: b.rollover_prepaid_remainder,
        renewPrepaidAllocation: b.renew_prepaid_allocation,
        expirationInterval: b.expiration_interval,
        expirationIntervalUnit: b.expiration_interval_unit,
      }),
    });
    c.pricePoints.push(pp);
    c.updatedAt = this.#now();
    return pp;
  }

  /**
   * PUT …/price_points/{id}.json. Prices are edited in place: an entry with an
   * `id` changes that bracket (`_destroy: true` removes it), one without makes
   * a new bracket; brackets not named stay. The result is checked as a whole
   * (ordered by starting quantity) before anything changes. An id that is not
   * one of this price point's brackets is the published `base` refusal.
   */
  updatePricePoint(c: ComponentRecord, pp: ComponentPricePointRecord, b: ComponentPricePointUpdateBody): ComponentPricePointRecord {
    const problems: Problems = {};
    const add = (key: string, message: string) => {
      problems[key] ??= [];
      if (!problems[key].includes(message)) problems[key].push(message);
    };
    if (b.handle !== undefined && b.handle !== pp.handle && this.pricePoints.holds(c, b.handle)) add("handle", PRICE_POINT_HANDLE_TAKEN);
    let next: (Omit<PriceRecord, "id"> & { id?: number })[] = pp.prices.map((p) => ({ ...p }));
    for (const e of b.prices ?? []) {
      if (e.id !== undefined) {
        const i = next.findIndex((p) => p.id === e.id);
        if (i < 0) {
          add("base", FOREIGN_PRICE);
          continue;
        }
        if (e._destroy === true) {
          next = next.filter((_, j) => j !== i);
          continue;
        }
        const cur = next[i];
        next[i] = {
          id: cur.id,
          startingQuantity: e.starting_quantity ?? cur.startingQuantity,
          endingQuantity: e.ending_quantity !== undefined ? e.ending_quantity : cur.endingQuantity,
          unitPrice: e.unit_price ?? cur.unitPrice,
        };
      } else if (e._destroy !== true) {
        if (e.starting_quantity === undefined) add("prices.starting_quantity", "Starting quantity: cannot be blank.");
        if (e.unit_price === undefined) add("prices.unit_price", "Unit price: cannot be blank.");
        if (e.starting_quantity !== undefined && e.unit_price !== undefined)
          next.push({ startingQuantity: e.starting_quantity, endingQuantity: e.ending_quantity ?? null, unitPrice: e.unit_price });
      }
    }
    next.sort((a, b2) => a.startingQuantity - b2.startingQuantity);
    const scheme = b.pricing_scheme ?? pp.pricingScheme;
    if (!hasProblems(problems)) for (const [k, v] of Object.entries(bracketProblems(scheme, next))) for (const m of v) add(k, m);
    if (hasProblems(problems)) throw new Refusal(problems);
    if (b.name !== undefined) pp.name = b.name;
    if (b.handle !== undefined) pp.handle = b.handle;
    if (b.use_site_exchange_rate !== undefined) pp.useSiteExchangeRate = b.use_site_exchange_rate;
    if (b.tax_included !== undefined) pp.taxIncluded = b.tax_included;
    if (b.interval !== undefined) pp.interval = b.interval;
    if (b.interval_unit !== undefined) pp.intervalUnit = b.interval_unit;
    pp.pricingScheme = scheme;
    pp.prices = next.map((p) => ({ ...p, id: p.id ?? this.#next.price++ }));
    pp.updatedAt = this.#now();
    c.updatedAt = pp.updatedAt;
    return pp;
  }

  /** `clear_data` with `cleanup_scope=all`: every component goes; the id sequences go on. */
  clear(): void {
    this.#components.clear();
  }

  // ---- data file -----------------------------------------------------------

  snapshot(): ComponentSnapshot {
    const next = { component: this.#next.component, componentPricePoint: this.pricePoints.nextId, price: this.#next.price };
    return { components: this.list({ includeArchived: true }).map((c) => structuredClone(c)), next };
  }

  restore(d: ComponentSnapshot): void {
    if (!this.isEmpty) throw new Error("simulator bookkeeping: restore into used components");
    for (const c of d.components) this.#components.set(c.id, structuredClone(c));
    this.pricePoints.restore([...this.#components.values()], d.next.componentPricePoint);
    const highest = (ids: Iterable<number>) => Math.max(0, ...ids) + 1;
    const priceIds = d.components.flatMap((c) =>
      c.pricePoints.flatMap((pp) => [...pp.prices, ...(pp.overagePricing?.prices ?? [])].map((p) => p.id)),
    );
    this.#next = {
      component: Math.max(d.next.component, highest(this.#components.keys())),
      price: Math.max(d.next.price, highest(priceIds)),
    };
  }

  // ---- bookkeeping -----------------------------------------------------------

  /** A price point the API makes (never archived; a `uuid:` handle when none is given). */
  #newPricePoint(o: {
    name: string;
    handle: string | null;
    isDefault: boolean;
    scheme: PricingSchemeRecord;
    interval: number | null;
    intervalUnit: "day" | "month" | null;
    useSiteExchangeRate?: boolean;
    taxIncluded?: boolean;
    overagePricing: PricingSchemeRecord | null;
    prepaid: Pick<
      ComponentPricePointRecord,
      "rolloverPrepaidRemainder" | "renewPrepaidAllocation" | "expirationInterval" | "expirationIntervalUnit"
    >;
  }): ComponentPricePointRecord {
    return this.pricePoints.make({ name: o.name, handle: o.handle, isDefault: o.isDefault }, () => ({
      ...o.scheme,
      interval: o.interval,
      intervalUnit: o.intervalUnit,
      useSiteExchangeRate: o.useSiteExchangeRate ?? true,
      taxIncluded: o.taxIncluded ?? false,
      overagePricing: o.overagePricing,
      ...o.prepaid,
    }));
  }

  #byHandle(handle: string): ComponentRecord | undefined {
    for (const c of this.#components.values()) if (c.handle === handle) return c;
    return undefined;
  }

  #claimComponent(given: number | undefined): number {
    const id = given ?? this.#next.component;
    if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`component id must be a positive integer, got ${id}`);
    if (this.#components.has(id)) throw new Error(`component id ${id} exists`);
    this.#next.component = Math.max(this.#next.component, id + 1);
    return id;
  }

  /** A bracket id: given ones (seeding) must be new; the sequence moves past them. */
  #claimPrice(given: number | undefined): number {
    if (given === undefined) return this.#next.price++;
    if (!Number.isSafeInteger(given) || given <= 0) throw new Error(`price id must be a positive integer, got ${given}`);
    const held = [...this.#components.values()].some((c) =>
      c.pricePoints.some((pp) => [...pp.prices, ...(pp.overagePricing?.prices ?? [])].some((p) => p.id === given)),
    );
    if (held) throw new Error(`price id ${given} exists`);
    this.#next.price = Math.max(this.#next.price, given + 1);
    return given;
  }
}

/**
 * Not published: which kinds recur by default. The published examples show an
 * on/off component recurring and a metered one not; quantity-based components
 * take `recurring` in their body (true unless said otherwise, as the web UI
 * defaults it); prepaid allocations renew per period; events are billed as used.
 */
function recurringByDefault(kind: ComponentKind): boolean {
  return kind === "on_off" || kind === "quantity_based" || kind === "prepaid_usage";
}

function bracketsOf(list: readonly PriceBody[]): Omit<PriceRecord, "id">[] {
  return list.map((p) => ({ startingQuantity: p.starting_quantity, endingQuantity: p.ending_quantity ?? null, unitPrice: p.unit_price }));
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function defaultComponentPricePoint(c: ComponentRecord): ComponentPricePointRecord {
  return defaultOf(c, "component");
}

export { NO_BRACKETS };
