import type { BillingClient } from "../../sdk/client";
import { underlying } from "../../sdk/reads-once";
import { type CheckFailure, isUnknown, UNKNOWN } from "../engine";
import { type CatalogFacet, type CatalogReader, type Context, referencePath } from "../kinds/kind";
import { isNotFound } from "../kinds/lifecycle";

/**
 * The check of `handle:` references at preview, for every kind from its declaration (its catalog facet's
 * `references`): a reference to an object the site does not have would preview as a create and fail only at `up`.
 * One read per reference (the referenced kind's reader's `withKey`), as soon as the site and the reference are
 * known; an id is the kind's own business (its preflight reads it anyway), an unknown value waits for `up`.
 */

/** A kind as the check reads it: its declaration and its reader. */
interface Referable {
  readonly kind: { readonly key: string; readonly type: string; readonly catalog?: CatalogFacet };
  readonly reader?: CatalogReader;
}

/** What a check does with a kind's references at the site. */
export interface ReferenceCheck {
  /** The failures of one check's `handle:` references; `olds` (the previous checked inputs) spare unchanged ones. */
  failures(
    ctx: Context,
    inputs: Readonly<Record<string, unknown>>,
    olds: Readonly<Record<string, unknown>> | undefined,
  ): Promise<CheckFailure[]>;
  /**
   * The inputs whose references name, at the same site, the objects the recorded ones name, written as recorded: an id
   * output where `handle:<h>` was recorded (the exported program after `pulumi import`, which records handles), or the
   * other way. The names of the inputs that are (the others are written differently, or name other objects).
   */
  asRecorded(ctx: Context, inputs: Readonly<Record<string, unknown>>, olds: Readonly<Record<string, unknown>>): Promise<string[]>;
}

/**
 * The keys checked in this process by site (its client) and kind: the declarations of the run. The engine checks
 * resources in the order the program registers them, and one provider process serves a run, so a reference to a
 * handle no object has yet can say that the program declares it (when that declaration came first).
 */
const declaredKeys = new WeakMap<BillingClient, Map<string, Set<string>>>();

/** Remembers a catalog declaration's key at its site, for the references checked after it. */
export function noteDeclared(ctx: Context, kind: Referable["kind"], inputs: Readonly<Record<string, unknown>>): void {
  const field = kind.catalog?.key;
  const key = field && inputs[field];
  if (typeof key !== "string" || isUnknown(key) || isUnknown(inputs.site)) return;
  const client = underlying(ctx.client(inputs.site as string | undefined));
  const byKind = declaredKeys.get(client) ?? new Map<string, Set<string>>();
  declaredKeys.set(client, byKind);
  const keys = byKind.get(kind.key) ?? new Set<string>();
  byKind.set(kind.key, keys);
  keys.add(key);
}

/** One place a reference occurs: its value, and the references beside it (an owned object's owner is one of them). */
interface Occurrence {
  readonly value: unknown;
  readonly beside: Readonly<Record<string, unknown>>;
}

/** Where a reference occurs in the inputs: the input itself, each entry of a list input, or a field of each object of one. */
function occurrences(inputs: Readonly<Record<string, unknown>>, reference: string): Occurrence[] {
  const [input, field] = referencePath(reference);
  const value = inputs[input];
  // The list itself not known yet; a known one may hold unknown entries, each set aside on its own.
  if (value === undefined || value === UNKNOWN) return [];
  if (field === undefined) return (Array.isArray(value) ? value : [value]).map((v) => ({ value: v, beside: inputs }));
  if (!Array.isArray(value)) return [];
  return value
    .filter((o): o is Record<string, unknown> => typeof o === "object" && o !== null)
    .map((o) => ({ value: o[field], beside: o }));
}

/** The handle (or a coupon's code) a `handle:` reference names; undefined for an id or a value not known yet. */
const handleOf = (v: unknown): string | undefined =>
  typeof v === "string" && !isUnknown(v) && v.startsWith("handle:") ? v.slice("handle:".length) : undefined;

/** A name for the example a message gives: the handle in camelCase, when it makes an identifier. */
const variableOf = (handle: string, noun: string): string => {
  const camel = handle.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase());
  return /^[A-Za-z][A-Za-z0-9]*$/.test(camel) ? camel : noun.replace(/ (.)/g, (_, c: string) => c.toUpperCase());
};

/** Whether two references sit side by side: both inputs of their own, or fields of the objects of one list input. */
const beside = (a: string, b: string): boolean => {
  const [ai, af] = referencePath(a);
  const [bi, bf] = referencePath(b);
  return af === undefined ? bf === undefined : bf !== undefined && ai === bi;
};

/** An owner the site does not have (a 404 reading in it): its own reference's failure, or its kind's, says so. */
const NO_OWNER = Symbol("no owner");

/** How a program passes the resource instead, in the input's own form: `product: rocket.productId`. */
function passed(reference: string, list: boolean, expression: string): string {
  const [input, field] = referencePath(reference);
  if (field !== undefined) return `${input}: [{ ${field}: ${expression}, … }]`;
  return list ? `${input}: [${expression}]` : `${input}: ${expression}`;
}

/** The check of a registry's kind `key`; undefined for a kind that references nothing. */
export function referenceCheck(all: readonly Referable[], key: string): ReferenceCheck | undefined {
  const references = Object.entries(all.find((m) => m.kind.key === key)?.kind.catalog?.references ?? {});
  if (references.length === 0) return undefined;
  const moduleOf = (kind: string) => all.find((m) => m.kind.key === kind);

  /** The reads of one check at one site, each once: an owner named twice (its own reference, a price point's owner) is read once. */
  const readsAt = (client: BillingClient) => {
    type Found = { readonly id: number } | undefined | typeof NO_OWNER;
    const reads = new Map<string, Promise<Found>>();
    return (kind: string, ref: string, owner?: { readonly id: number }): Promise<Found> => {
      const id = `${kind}\u0000${owner?.id ?? ""}\u0000${ref}`;
      const reader = moduleOf(kind)?.reader;
      const found =
        reads.get(id) ??
        (async (): Promise<Found> => {
          try {
            return await reader?.withKey?.(client, ref, owner);
          } catch (err) {
            if (owner !== undefined && isNotFound(err)) return NO_OWNER;
            throw err;
          }
        })();
      reads.set(id, found);
      return found;
    };
  };
  /** The reference that names an owned target's owner beside `reference` (a price point's product), if any. */
  const ownerReference = (reference: string, target: string): string | undefined => {
    const owner = moduleOf(target)?.kind.catalog?.owner;
    return owner && references.find(([r, { kind }]) => kind === owner.kind && beside(r, reference))?.[0];
  };

  const failures: ReferenceCheck["failures"] = async (ctx, inputs, olds) => {
    const site = inputs.site;
    if (isUnknown(site)) return [];
    const client = ctx.client(site as string | undefined);
    const where = ctx.siteLabel(site as string | undefined);
    const sameSite = olds !== undefined && JSON.stringify(olds.site) === JSON.stringify(site);
    const read = readsAt(client);

    const failures: CheckFailure[] = [];
    for (const [reference, { kind: target, output }] of references) {
      const [input] = referencePath(reference);
      // Unchanged at the same site: checked when it was declared (a removal at the service is drift, for refresh).
      if (sameSite && JSON.stringify(olds?.[input]) === JSON.stringify(inputs[input])) continue;
      const declaration = moduleOf(target)?.kind;
      const facet = declaration?.catalog;
      if (!declaration || !facet || !moduleOf(target)?.reader?.withKey) continue;
      // An owned object (a price point) is looked for in the owner the reference beside it names.
      const ownerRef = ownerReference(reference, target);
      const ownerFacet = facet.owner && moduleOf(facet.owner.kind)?.kind.catalog;
      for (const { value, beside: sides } of occurrences(inputs, reference)) {
        const handle = handleOf(value);
        if (handle === undefined) continue;
        let owner: { readonly id: number } | undefined;
        let ofOwner = "";
        if (facet.owner) {
          const ref = ownerRef && sides[referencePath(ownerRef)[1] ?? ownerRef];
          const ownerKey = handleOf(ref);
          // No owner named by handle (an id is the kind's own read), or one not known yet or not there: nothing to look
          // in here (the owner's own reference, or the kind's preflight, speaks of it).
          if (ownerKey === undefined) continue;
          const held = await read(facet.owner.kind, ownerKey);
          if (held === undefined || held === NO_OWNER) continue;
          owner = held;
          ofOwner = ` of ${ownerFacet?.noun ?? facet.owner.kind} \`${ownerKey}\``;
        }
        const found = await read(target, handle, owner);
        if (found !== undefined) continue;
        const list = Array.isArray(inputs[input]) && referencePath(reference)[1] === undefined;
        const example = passed(reference, list, `${variableOf(handle, facet.noun)}.${output}`);
        const declared = declaredKeys.get(underlying(client))?.get(target)?.has(handle) === true;
        const instead =
          `pass the ${declaration.type}'s \`${output}\` (e.g. \`${example}\`) instead of the literal ${facet.key}, ` +
          "so that the engine creates it first";
        const none = `no ${facet.noun}${ofOwner} has the ${facet.key} \`${handle}\` at site ${where}`;
        failures.push({
          property: input,
          reason: declared
            ? // A literal key names no resource, so nothing orders that create before this one's.
              `${none} yet: a ${declaration.type} this program declares has it, and the reference must be that resource: ${instead}`
            : `${none}: it must name an existing ${facet.noun} (its id, or "handle:<${facet.key}>"); if this program creates it, ${instead}`,
        });
      }
    }
    return failures;
  };

  const asRecorded: ReferenceCheck["asRecorded"] = async (ctx, inputs, olds) => {
    const site = inputs.site;
    if (isUnknown(site) || JSON.stringify(olds.site) !== JSON.stringify(site)) return [];
    const read = readsAt(ctx.client(site as string | undefined));
    /** The id of the object a reference names at the site: an id as it is, a `handle:` read (within its owner); else undefined. */
    const idOf = async (
      reference: string,
      target: string,
      value: unknown,
      sides: Readonly<Record<string, unknown>>,
    ): Promise<number | undefined> => {
      if (typeof value === "number") return value;
      const handle = handleOf(value);
      if (handle === undefined) return undefined;
      let owner: { readonly id: number } | undefined;
      const ownerKind = moduleOf(target)?.kind.catalog?.owner?.kind;
      if (ownerKind !== undefined) {
        const ownerRef = ownerReference(reference, target);
        const ownerId =
          ownerRef === undefined ? undefined : await idOf(ownerRef, ownerKind, sides[referencePath(ownerRef)[1] ?? ownerRef], sides);
        if (ownerId === undefined) return undefined;
        owner = { id: ownerId };
      }
      const found = await read(target, handle, owner);
      return found === undefined || found === NO_OWNER ? undefined : found.id;
    };
    /** An input with every reference in it as the id it names (a list as a set); undefined when one is not found. */
    const named = async (input: string, value: unknown, container: Readonly<Record<string, unknown>>): Promise<unknown> => {
      const here = references.filter(([r]) => referencePath(r)[0] === input);
      const top = here.find(([r]) => referencePath(r)[1] === undefined);
      if (top) {
        const [reference, { kind }] = top;
        if (!Array.isArray(value)) return idOf(reference, kind, value, container);
        const ids = await Promise.all(value.map((v) => idOf(reference, kind, v, container)));
        return ids.includes(undefined) ? undefined : [...new Set(ids as number[])].sort((a, b) => a - b);
      }
      if (!Array.isArray(value)) return undefined;
      const items: unknown[] = [];
      for (const item of value) {
        if (typeof item !== "object" || item === null) return undefined;
        const out: Record<string, unknown> = { ...item };
        for (const [reference, { kind }] of here) {
          const f = referencePath(reference)[1] as string;
          if (!(f in item)) continue;
          out[f] = await idOf(reference, kind, (item as Record<string, unknown>)[f], item as Record<string, unknown>);
          if (out[f] === undefined) return undefined;
        }
        items.push(out);
      }
      // A set too, as the kinds' schemas keep such a list (an offer's components, by component): ordered by what they name.
      return items.map((i) => JSON.stringify(i)).sort();
    };
    const same: string[] = [];
    for (const input of new Set(references.map(([r]) => referencePath(r)[0]))) {
      const [now, was] = [inputs[input], olds[input]];
      if (now === undefined || was === undefined || JSON.stringify(now) === JSON.stringify(was)) continue;
      if (isUnknown(now)) continue;
      const [a, b] = [await named(input, now, inputs), await named(input, was, olds)];
      if (a !== undefined && JSON.stringify(a) === JSON.stringify(b)) same.push(input);
    }
    return same;
  };

  return { failures, asRecorded };
}
