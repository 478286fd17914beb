import { randomUUID } from "node:crypto";
import { BillingApiError, BillingValidationError } from "../errors";
import { allPages } from "../pages";
import type { Component } from "../results";
import type { Transport } from "../transport";
import { problemsOf } from "../validation";
import { componentArchiveResponse, componentListResponse, componentResponse, MAX_COMPONENTS_PER_PAGE } from "../wire";
import { idOf, idProblems, parsed, tokenProblems } from "./checks";
import { componentCreateBody, componentUpdateBody } from "./component-bodies";
import { componentInput, componentUpdateInput } from "./component-inputs";
import { toComponent } from "./component-results";
import { type CreateOptions, createOnce, differsFrom, type Sighting, sightingInFamily } from "./create";
import type { ComponentInput, ComponentUpdateInput } from "./input-types";
import { catalogHandle } from "./inputs";
import { settledWrite } from "./settle";

/** Components: create (one path per kind), read, look up by handle, list, update, archive. */

/** Both ids of a component operation, checked together. */
function idsOf(familyId: unknown, componentId: unknown): [number, number] {
  const problems = [...idProblems(familyId, "familyId"), ...idProblems(componentId, "componentId")];
  if (problems.length > 0) throw new BillingValidationError("invalid component", problems);
  return [familyId as number, componentId as number];
}

const componentPath = (familyId: number, componentId: number) => `/product_families/${familyId}/components/${componentId}.json`;

/** A component by family and id. A 404 is a {@link BillingApiError} with status 404. */
export async function readComponent(t: Transport, familyId: unknown, componentId: unknown): Promise<Component> {
  const [fid, cid] = idsOf(familyId, componentId);
  const { component } = await t.call({ method: "GET", path: componentPath(fid, cid), repeatable: true }, componentResponse);
  return toComponent(component);
}

/**
 * A component by handle (`GET /components/lookup.json?handle=`), archived ones included when the
 * service answers them. A 404 is a {@link BillingApiError} with status 404.
 */
export async function findComponentByHandle(t: Transport, handle: unknown): Promise<Component> {
  const r = catalogHandle.safeParse(handle);
  if (!r.success) throw new BillingValidationError("invalid component handle", problemsOf(r.error, "handle"));
  const { component } = await t.call(
    { method: "GET", path: "/components/lookup.json", repeatable: true, query: { handle: r.data } },
    componentResponse,
  );
  return toComponent(component);
}

/** Options of `listComponents`. */
export interface ListComponentsOptions {
  /** Archived components too (default false: the service leaves them out). */
  readonly includeArchived?: boolean;
  /** Only this family's components (`GET /product_families/{id}/components.json`). */
  readonly familyId?: number;
}

/**
 * Every component of the site, or of one family, across pages. `ids` (the contract's `filter[ids]`, not offered to
 * callers: the batched reads use it) lists only those.
 */
export async function listComponents(
  t: Transport,
  opts: ListComponentsOptions & { readonly ids?: readonly number[] } = {},
): Promise<Component[]> {
  const path =
    opts.familyId === undefined
      ? "/components.json"
      : `/product_families/${idOf(opts.familyId, "familyId", "invalid component list")}/components.json`;
  const rows = await allPages(MAX_COMPONENTS_PER_PAGE, async (page) =>
    (
      await t.call(
        {
          method: "GET",
          path,
          repeatable: true,
          query: {
            page,
            per_page: MAX_COMPONENTS_PER_PAGE,
            include_archived: opts.includeArchived ? "true" : undefined,
            "filter[ids]": opts.ids?.join(","),
          },
        },
        componentListResponse,
      )
    ).map((r) => r.component),
  );
  // Without includeArchived, an archived one the service still sent is left out.
  return rows.map(toComponent).filter((c) => opts.includeArchived || c.archivedAt === undefined);
}

/** A component by handle, for a create's read-back (see {@link sightingInFamily}). */
const findComponent = (t: Transport, handle: string, familyId: number): Promise<Sighting<Component>> =>
  sightingInFamily("component", familyId, () => findComponentByHandle(t, handle));

/**
 * Creates a component in a family once (see {@link createOnce}), by the create path of its kind
 * (`POST /product_families/{id}/{kind}_components.json`).
 */
export async function createComponent(
  t: Transport,
  familyId: unknown,
  input: ComponentInput,
  opts: Omit<CreateOptions, "uniquenessToken"> & { uniquenessToken?: unknown },
): Promise<Component> {
  const c = parsed(componentInput, input, "invalid component", undefined, [
    ...idProblems(familyId, "familyId"),
    ...tokenProblems(opts.uniquenessToken),
  ]);
  const family = familyId as number;
  const token = (opts.uniquenessToken as string | undefined) ?? randomUUID();
  return createOnce(
    t,
    {
      kind: "component",
      handle: c.handle,
      uniquenessToken: token,
      request: {
        method: "POST",
        path: `/product_families/${family}/${c.kind}_components.json`,
        repeatable: false,
        body: { ...componentCreateBody(c), uniqueness_token: token },
      },
      answer: componentResponse,
      result: (r) => toComponent(r.component),
      find: () => findComponent(t, c.handle, family),
      differs: (o) =>
        differsFrom(o.id, [
          ["name", c.name, o.name],
          ["kind", c.kind, o.kind],
        ]),
    },
    { ...opts, uniquenessToken: token },
  );
}

/** The update's fields a read reports, and their result property. */
const REPORTED: readonly (keyof ComponentUpdateInput & keyof Component)[] = [
  "handle",
  "name",
  "description",
  "accountingCode",
  "taxable",
  "taxCode",
  "itemCategory",
  "upgradeCharge",
  "downgradeCredit",
  "displayOnHostedPage",
];

/**
 * Changes the fields given (`PUT /components/{id}.json`), and only those. A PUT of values: repeated
 * like a read, and after a failure that may have applied, read back (by family and id) to see
 * whether every reported field holds.
 */
export async function updateComponent(
  t: Transport,
  familyId: unknown,
  componentId: unknown,
  input: ComponentUpdateInput,
): Promise<Component> {
  const [fid, cid] = idsOf(familyId, componentId);
  const u = parsed(componentUpdateInput, input, "invalid component update");
  return settledWrite(
    t,
    { method: "PUT", path: `/components/${cid}.json`, repeatable: true, body: componentUpdateBody(u) },
    componentResponse,
    (r) => toComponent(r.component),
    async () => {
      const back = await readComponent(t, fid, cid);
      let compared = 0;
      for (const k of REPORTED) {
        if (u[k] === undefined || back[k] === undefined) continue;
        if (back[k] !== u[k]) return undefined;
        compared++;
      }
      return compared > 0 ? back : undefined;
    },
  );
}

/**
 * Archives a component (`DELETE`; nothing is deleted, and there is no unarchive). After an attempt
 * that may have applied, one read back as archived is the result.
 */
export async function archiveComponent(t: Transport, familyId: unknown, componentId: unknown): Promise<Component> {
  const [fid, cid] = idsOf(familyId, componentId);
  return settledWrite(
    t,
    { method: "DELETE", path: componentPath(fid, cid), repeatable: true },
    componentArchiveResponse,
    (c) => toComponent(c),
    async () => {
      const c = await readComponent(t, fid, cid);
      return c.archivedAt !== undefined ? c : undefined;
    },
  );
}
