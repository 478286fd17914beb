import { randomUUID } from "node:crypto";
import { z } from "zod";
import { type Problem, parsed, tokenProblems } from "../catalog/checks";
import { type CreateOptions, createOnce, type Sighting } from "../catalog/create";
import { settledWrite } from "../catalog/settle";
import { BillingApiError, BillingValidationError } from "../errors";
import type { Transport } from "../transport";
import { problemsOf } from "../validation";
import { MAX_METAFIELDS_PER_PAGE, metafieldListResponse, metafieldsResponse } from "../wire";
import type { MetafieldInput, MetafieldUpdateInput } from "./input-types";
import { type MetafieldResourceType, metafieldInput, metafieldName, metafieldResourceType, metafieldUpdateInput } from "./inputs";
import { type Metafield, toMetafield } from "./results";

/**
 * Custom fields (metafields) of subscriptions or customers: list, create, update (a rename names the field by
 * its current name), delete. A field is known by its name: the API's update and delete name it, the vendor's
 * create answer carries no id, and the list filters by it. So a create reads back by name after an ambiguous
 * failure. Deleting a field deletes its data on every subscription or customer (`dataCount` says how many).
 */

const path = (resourceType: MetafieldResourceType) => `/${resourceType}/metafields.json`;

function typeOf(resourceType: unknown, more: Problem[] = [], what = "invalid metafield"): MetafieldResourceType {
  const r = metafieldResourceType.safeParse(resourceType);
  const problems = [...(r.success ? [] : problemsOf(r.error, "resourceType")), ...more];
  if (problems.length > 0 || !r.success) throw new BillingValidationError(what, problems);
  return r.data;
}

/** Options of `listMetafields`. */
export interface ListMetafieldsOptions {
  /** Only the field with this name (the contract's `name` filter). */
  readonly name?: string;
}

/**
 * Every custom field of a resource type, across pages (the contract's list: `per_page` up to 200). Rows are told
 * apart by name (the vendor's examples give id 0 or none); paging ends on a short page or one with nothing new.
 */
export async function listMetafields(t: Transport, resourceType: unknown, opts: ListMetafieldsOptions = {}): Promise<Metafield[]> {
  const n = opts.name === undefined ? undefined : metafieldName.safeParse(opts.name);
  const nameProblems = n && !n.success ? problemsOf(n.error, "name") : [];
  const rt = typeOf(resourceType, nameProblems, "invalid metafield list");
  const out: Metafield[] = [];
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    const { metafields } = await t.call(
      { method: "GET", path: path(rt), repeatable: true, query: { name: opts.name, page, per_page: MAX_METAFIELDS_PER_PAGE } },
      metafieldListResponse,
    );
    let fresh = 0;
    for (const m of metafields) {
      if (seen.has(m.name)) continue;
      seen.add(m.name);
      out.push(toMetafield(m));
      fresh++;
    }
    if (metafields.length < MAX_METAFIELDS_PER_PAGE || fresh === 0) break;
  }
  // The service's filter may match more loosely than equality: only the field with exactly this name.
  return opts.name === undefined ? out : out.filter((m) => m.name === opts.name);
}

/** The scope as the wire's "0"/"1" flags; with a scope given, a flag left out is sent as off (the service replaces it whole). */
function scopeBody(scope: MetafieldInput["scope"]) {
  if (scope === undefined) return undefined;
  const f = (v: boolean | undefined) => (v ? "1" : "0");
  return {
    csv: f(scope.csv),
    invoices: f(scope.invoices),
    statements: f(scope.statements),
    portal: f(scope.portal),
    public_show: f(scope.publicShow),
    public_edit: f(scope.publicEdit),
    ...(scope.hosted === undefined ? {} : { hosted: [...scope.hosted] }),
  };
}

const fieldBody = (m: MetafieldUpdateInput) => ({
  ...(m.name === undefined ? {} : { name: m.name }),
  ...(m.inputType === undefined ? {} : { input_type: m.inputType }),
  ...(m.enum === undefined ? {} : { enum: [...m.enum] }),
  ...(m.scope === undefined ? {} : { scope: scopeBody(m.scope) }),
});

/** Whether `held` holds what `asked` sets: the name, the input type, the values (in any order), the scope's flags. */
function holds(held: Metafield, asked: MetafieldUpdateInput): string | undefined {
  if (asked.inputType !== undefined && held.inputType !== undefined && held.inputType !== asked.inputType)
    return `it holds inputType "${held.inputType}" where this asked "${asked.inputType}"`;
  if (asked.enum !== undefined && [...held.enum].sort().join("\n") !== [...asked.enum].sort().join("\n"))
    return `it holds the values ${JSON.stringify(held.enum)} where this asked ${JSON.stringify(asked.enum)}`;
  return undefined;
}

/**
 * Creates a custom field once (see {@link createOnce}): the POST carries a uniqueness token; after an ambiguous
 * failure the field is read back by name (`?name=`), and only when none has it is the POST sent again, with the
 * same token. A field with the name that holds another input type or other values was there before: not taken as
 * this create's.
 */
export async function createMetafield(
  t: Transport,
  resourceType: unknown,
  input: MetafieldInput,
  opts: Omit<CreateOptions, "uniquenessToken"> & { uniquenessToken?: unknown },
): Promise<Metafield> {
  const rt = typeOf(resourceType);
  const m = parsed(metafieldInput, input, "invalid metafield", undefined, tokenProblems(opts.uniquenessToken));
  const token = (opts.uniquenessToken as string | undefined) ?? randomUUID();
  const find = async (): Promise<Sighting<Metafield>> => {
    const [f] = await listMetafields(t, rt, { name: m.name });
    return f ? { found: f } : { seen: "not listed" };
  };
  return createOnce(
    t,
    {
      kind: "metafield",
      handle: m.name,
      uniquenessToken: token,
      request: { method: "POST", path: path(rt), repeatable: false, body: { metafields: fieldBody(m), uniqueness_token: token } },
      // An answer that lists no field does not say what was made: read as not understood, so the field is read back by name.
      answer: metafieldsResponse.refine((r) => r.length > 0, { error: "lists no metafield" }),
      // The answer lists the fields written: this one by name (the first when none matches).
      result: (r) => toMetafield(r.find((x) => x.name === m.name) ?? r[0]),
      find,
      differs: (f) => holds(f, m),
    },
    { ...opts, uniquenessToken: token },
  );
}

/**
 * Changes a custom field, named by its current name (`current_name`): a new `name` renames it (its data stays),
 * `scope` replaces the whole scope. A PUT of values, repeated like a read; after a failure that may have applied
 * (a rename repeated finds no field by the old name), read back by the new name to see whether it holds.
 */
export async function updateMetafield(
  t: Transport,
  resourceType: unknown,
  currentName: unknown,
  input: MetafieldUpdateInput,
): Promise<Metafield> {
  const nameCheck = metafieldName.safeParse(currentName);
  const rt = typeOf(resourceType, nameCheck.success ? [] : problemsOf(nameCheck.error, "currentName"), "invalid metafield update");
  const m = parsed(metafieldUpdateInput, input, "invalid metafield update");
  const current = currentName as string;
  const target = m.name ?? current;
  return settledWrite(
    t,
    { method: "PUT", path: path(rt), repeatable: true, body: { metafields: { current_name: current, ...fieldBody(m) } } },
    metafieldsResponse,
    async (r) => {
      const f = r.find((x) => x.name === target) ?? r[0];
      if (f) return toMetafield(f);
      // An answer without the field: the list says what the service holds now.
      const [back] = await listMetafields(t, rt, { name: target });
      if (back) return back;
      throw new BillingApiError({
        status: 200,
        errors: [],
        method: "PUT",
        path: path(rt),
        message: `PUT ${path(rt)} answered without the field, and no field named "${target}" is listed: read the fields before relying on the update`,
      });
    },
    async () => {
      const [f] = await listMetafields(t, rt, { name: target });
      return f && holds(f, m) === undefined ? f : undefined;
    },
  );
}

/**
 * Deletes a custom field by name (`DELETE …/metafields.json?name=`), and with it its data on every subscription
 * or customer. Repeated like a read; after a failure that may have applied (a repeat then finds nothing, 404),
 * the field is looked for by name: gone is deleted. A field that was never there is a {@link BillingApiError} 404.
 */
export async function deleteMetafield(t: Transport, resourceType: unknown, name: unknown): Promise<void> {
  const nameCheck = metafieldName.safeParse(name);
  const rt = typeOf(resourceType, nameCheck.success ? [] : problemsOf(nameCheck.error, "name"), "invalid metafield delete");
  await settledWrite(
    t,
    { method: "DELETE", path: path(rt), repeatable: true, query: { name: name as string } },
    z.unknown(),
    () => true,
    async () => ((await listMetafields(t, rt, { name: name as string })).length === 0 ? true : undefined),
  );
}
