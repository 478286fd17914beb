import type { BillingClient } from "../../sdk/client";
import { BillingApiError } from "../../sdk/errors";
import type { MetafieldResourceType } from "../../sdk/site-config/inputs";
import type { Metafield } from "../../sdk/site-config/results";

/**
 * A custom field's values as the service holds them and as a program declares them: the scope (whose flags left
 * out are off, since the service replaces it whole), the allowed values (only a radio's or a dropdown's), and the
 * field a name names under its resource type.
 */

/** A custom field as the service holds it, with the resource type it was listed under (its answers do not say it). */
export type HeldField = Metafield & { readonly resourceType: MetafieldResourceType };

/**
 * A custom field's declared scope: where it shows. Each flag is optional, and one left out is off (the service
 * replaces the whole scope); the public signup pages are a set.
 */
export interface DeclaredScope {
  /** Whether the field is in the CSV export (left out: off). */
  readonly csv?: boolean;
  /** Whether the field is shown on invoices (left out: off). */
  readonly invoices?: boolean;
  /** Whether the field is shown on statements (left out: off). */
  readonly statements?: boolean;
  /** Whether the field is shown in the customer portal (left out: off). */
  readonly portal?: boolean;
  /** Whether the field is viewable by your ecosystem, public signup pages included (left out: off). */
  readonly publicShow?: boolean;
  /** Whether the field is editable by your ecosystem (left out: off). */
  readonly publicEdit?: boolean;
  /** The ids of the public signup pages that show the field (their order says nothing). */
  readonly hosted?: string[];
}

const FLAGS = ["csv", "invoices", "statements", "portal", "publicShow", "publicEdit"] as const;

/** Every flag said (a flag the service does not answer, or a declaration leaves out, is off), the pages as given. */
export function fullScope(
  s: DeclaredScope | Metafield["scope"] | undefined,
): Required<Omit<DeclaredScope, "hosted">> & { hosted: string[] } {
  const out = Object.fromEntries(FLAGS.map((f) => [f, s?.[f] === true])) as Record<(typeof FLAGS)[number], boolean>;
  return { ...out, hosted: [...(s?.hosted ?? [])] };
}

/** The scope as a program writes it: the flags that are on, and the pages when there are any; undefined when nothing shows. */
export function compactScope(s: Metafield["scope"]): DeclaredScope | undefined {
  const full = fullScope(s);
  const on = Object.fromEntries(FLAGS.filter((f) => full[f]).map((f) => [f, true]));
  const out = { ...on, ...(full.hosted.length > 0 ? { hosted: full.hosted } : {}) };
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Whether the service's scope is the declared one: the same flags on, the same pages (a set: their order says nothing). */
export function sameScope(declared: DeclaredScope, held: Metafield["scope"]): boolean {
  const sorted = (s: DeclaredScope | Metafield["scope"]) => {
    const full = fullScope(s);
    return JSON.stringify({ ...full, hosted: [...full.hosted].sort() });
  };
  return sorted(declared) === sorted(held);
}

/** A field's input type: the service's default when it answers none. */
export const inputTypeOf = (f: { readonly inputType?: string | null }): string => f.inputType ?? "text";

/** The allowed values a field holds: a radio's or a dropdown's (a text field keeps none that matter). */
export const choicesOf = (f: { readonly inputType?: string | null; readonly enum?: readonly string[] | null }): string[] | undefined =>
  inputTypeOf(f) !== "text" && (f.enum?.length ?? 0) > 0 ? [...(f.enum ?? [])] : undefined;

/** The field of `resourceType` with exactly this name; undefined when there is none. */
export async function fieldNamed(client: BillingClient, resourceType: MetafieldResourceType, name: string): Promise<HeldField | undefined> {
  const [f] = await client.listMetafields(resourceType, { name });
  return f && { ...f, resourceType };
}

/** The field a recorded name names, as a read by id would answer: a 404 when it is gone (renamed or deleted outside). */
export async function heldField(client: BillingClient, resourceType: MetafieldResourceType, name: string): Promise<HeldField> {
  const f = await fieldNamed(client, resourceType, name);
  if (f) return f;
  const path = `/${resourceType}/metafields.json`;
  throw new BillingApiError({
    status: 404,
    errors: [],
    method: "GET",
    path,
    message: `GET ${path}: ${resourceType} have no custom field named ${JSON.stringify(name)}`,
  });
}
