import type {
  IncludeOption,
  MetafieldInput,
  MetafieldInputType,
  MetafieldRecord,
  MetafieldResource,
  MetafieldScopeRecord,
} from "./records-site";
import { SiteError } from "./site-error";

export const METAFIELD_RESOURCES: readonly MetafieldResource[] = ["subscriptions", "customers"];
export const METAFIELD_INPUT_TYPES: readonly MetafieldInputType[] = ["balance_tracker", "text", "radio", "dropdown"];
/** "Each site is limited to 100 unique Metafields (i.e. keys, or names) per resource" (createMetafields' description). */
export const METAFIELD_LIMIT = 100;
export const FIRST_METAFIELD_ID = 90001;

/** createMetafields' published 422 (a Single Error Response). */
export const NAME_REQUIRED = "'name' must be present to create or update metafields";
/** updateMetafield's published 422. */
export const NAME_TAKEN = "Metafield name must be unique for the Attachment Type";

/** A scope nothing was said about: excluded everywhere, no hosted pages (the vendor's end-to-end suite: "without scope"). */
export const NO_SCOPE: MetafieldScopeRecord = Object.freeze({
  csv: "0",
  invoices: "0",
  statements: "0",
  portal: "0",
  publicShow: "0",
  publicEdit: "0",
  hosted: [] as string[],
}) as MetafieldScopeRecord;

/** What a create or an update gives; a scope given is whole ("partially complete scope attributes will override the existing settings"). */
export interface MetafieldChange {
  name?: string;
  inputType?: MetafieldInputType;
  enum?: string[] | null;
  scope?: MetafieldScopeRecord;
}

export interface MetafieldSnapshot {
  metafields: MetafieldRecord[];
  next: number;
}

/**
 * Custom fields of subscriptions and of customers, each resource type with its
 * own names. What the service does beyond the contract is read from the
 * vendor's end-to-end suite, run against a real site
 * (maxio-com/ab-typescript-sdk, e2e/src/customFieldsController.spec.ts):
 * - a create answers only the fields it made, in the order given;
 * - creating a name that exists answers 200 with that field, its scope as the
 *   create gave it (the suite creates "customTextName" four times, each with
 *   another scope, and reads back each scope): the create updates it;
 * - an update answers the one field it changed, id kept, its name, input type,
 *   allowed values and scope as given (text to dropdown and back, `enum: []`);
 * - a delete without a name is a 404, and deletes the field's data too ("this
 *   will remove the metafield and associated metadata with all Subscriptions").
 */
export class Metafields {
  readonly #fields = new Map<number, MetafieldRecord>();
  #next = FIRST_METAFIELD_ID;

  get isEmpty(): boolean {
    return this.#fields.size === 0;
  }

  /** A field made elsewhere (the web UI), its values on `dataCount` records. */
  add(m: MetafieldInput): MetafieldRecord {
    if (!METAFIELD_RESOURCES.includes(m.resourceType)) throw new Error(`addMetafield: resourceType must be subscriptions or customers`);
    if (typeof m.name !== "string" || m.name.trim() === "") throw new Error("addMetafield: name must be a non-empty string");
    if (this.find(m.resourceType, m.name)) throw new Error(`addMetafield: ${m.resourceType} already have a metafield '${m.name}'`);
    if (m.inputType !== undefined && !METAFIELD_INPUT_TYPES.includes(m.inputType))
      throw new Error(`addMetafield: inputType must be one of ${METAFIELD_INPUT_TYPES.join(", ")}`);
    const dataCount = m.dataCount ?? 0;
    if (!Number.isSafeInteger(dataCount) || dataCount < 0) throw new Error("addMetafield: dataCount must be a whole number of 0 or more");
    if (m.id !== undefined && (this.#fields.has(m.id) || !Number.isSafeInteger(m.id) || m.id <= 0))
      throw new Error(`addMetafield: id ${m.id} is taken or not a positive integer`);
    const id = m.id ?? this.#next;
    this.#next = Math.max(this.#next, id + 1);
    const record: MetafieldRecord = {
      id,
      resourceType: m.resourceType,
      name: m.name,
      inputType: m.inputType ?? "text",
      enum: m.enum === undefined || m.enum === null ? null : [...m.enum],
      scope: { ...NO_SCOPE, ...m.scope, hosted: [...(m.scope?.hosted ?? [])] },
      dataCount,
    };
    this.#fields.set(id, record);
    return structuredClone(record);
  }

  /** How many records hold a value for the field (the web UI, or signups that filled it in). */
  setDataCount(resourceType: MetafieldResource, name: string, count: number): MetafieldRecord {
    const m = this.find(resourceType, name);
    if (!m) throw new Error(`setMetafieldDataCount: ${resourceType} have no metafield '${name}'`);
    if (!Number.isSafeInteger(count) || count < 0) throw new Error("setMetafieldDataCount: count must be a whole number of 0 or more");
    m.dataCount = count;
    return structuredClone(m);
  }

  find(resourceType: MetafieldResource, name: string): MetafieldRecord | undefined {
    for (const m of this.#fields.values()) if (m.resourceType === resourceType && m.name === name) return m;
    return undefined;
  }

  /** Oldest first (`direction=desc`: newest first); `name` filters to the field of that name. */
  list(resourceType: MetafieldResource, o: { name?: string; descending?: boolean } = {}): MetafieldRecord[] {
    const rows = [...this.#fields.values()]
      .filter((m) => m.resourceType === resourceType && (o.name === undefined || m.name === o.name))
      .sort((a, b) => a.id - b.id);
    return o.descending ? rows.reverse() : rows;
  }

  /** POST: a new field, or the one of that name changed (see the class). The whole request is checked before anything changes. */
  create(resourceType: MetafieldResource, changes: readonly (MetafieldChange & { name: string })[]): MetafieldRecord[] {
    const fresh = new Set(changes.map((c) => c.name).filter((n) => !this.find(resourceType, n)));
    if (this.list(resourceType).length + fresh.size > METAFIELD_LIMIT)
      throw new SiteError(422, { error: `A site can have at most ${METAFIELD_LIMIT} metafields for ${resourceType}.` });
    return changes.map((c) => {
      const existing = this.find(resourceType, c.name);
      if (existing) return this.#apply(existing, c);
      const id = this.#next++;
      const record: MetafieldRecord = {
        id,
        resourceType,
        name: c.name,
        inputType: "text",
        enum: null,
        scope: structuredClone(NO_SCOPE),
        dataCount: 0,
      };
      this.#fields.set(id, this.#apply(record, c));
      return record;
    });
  }

  /**
   * PUT: each field named by `currentName` (404 when there is none) changes what is given; a new name must be
   * free. Every entry is checked before any changes, so a refused request changes nothing.
   */
  update(resourceType: MetafieldResource, updates: readonly { currentName: string; change: MetafieldChange }[]): MetafieldRecord[] {
    const found = updates.map(({ currentName, change }) => {
      const m = this.find(resourceType, currentName);
      if (!m) throw new SiteError(404, `Metafield '${currentName}' not found for ${resourceType}`);
      if (change.name !== undefined && change.name !== m.name && this.find(resourceType, change.name))
        throw new SiteError(422, { error: NAME_TAKEN });
      return m;
    });
    return found.map((m, i) => this.#apply(m, updates[i].change));
  }

  /** DELETE ?name=: the field and its values on every record (404 when there is none). */
  delete(resourceType: MetafieldResource, name: string): MetafieldRecord {
    const m = this.find(resourceType, name);
    if (!m) throw new SiteError(404, `Metafield '${name}' not found for ${resourceType}`);
    this.#fields.delete(m.id);
    return m;
  }

  /** The records that held values are gone (`clear_data`): the fields stay (site settings), with no data. */
  clearData(): void {
    for (const m of this.#fields.values()) m.dataCount = 0;
  }

  snapshot(): MetafieldSnapshot {
    return { metafields: [...this.#fields.values()].sort((a, b) => a.id - b.id).map((m) => structuredClone(m)), next: this.#next };
  }

  restore(d: MetafieldSnapshot): void {
    if (!this.isEmpty) throw new Error("simulator bookkeeping: restore into used metafields");
    for (const m of d.metafields) this.#fields.set(m.id, structuredClone(m));
    this.#next = Math.max(d.next, Math.max(0, ...this.#fields.keys()) + 1);
  }

  /**
   * Radio and dropdown fields keep their allowed values; a field turned into
   * text keeps what was given (the suite reads `enum: []` back), and one that
   * never had values writes null (the published create example).
   */
  #apply(m: MetafieldRecord, c: MetafieldChange): MetafieldRecord {
    if (c.name !== undefined) m.name = c.name;
    if (c.inputType !== undefined) m.inputType = c.inputType;
    if (c.enum !== undefined) m.enum = c.enum;
    if (c.scope !== undefined) m.scope = structuredClone(c.scope);
    return m;
  }
}

export const includeOption = (v: unknown): IncludeOption | undefined =>
  v === "1" || v === 1 || v === true ? "1" : v === "0" || v === 0 || v === false ? "0" : undefined;
