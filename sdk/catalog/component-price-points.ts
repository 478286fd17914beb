import { randomUUID } from "node:crypto";
import { BillingValidationError } from "../errors";
import { allPages } from "../pages";
import type { ComponentPricePoint, PriceTier } from "../results";
import type { Transport } from "../transport";
import {
  componentPricePointListResponse,
  componentPricePointResponse,
  componentResponse,
  MAX_COMPONENT_PRICE_POINTS_PER_PAGE,
} from "../wire";
import { idOf, idProblems, parsed, tokenProblems } from "./checks";
import { componentPricePointCreateBody, componentPricePointUpdateBody } from "./component-bodies";
import { componentPricePointInput, componentPricePointUpdateInput } from "./component-inputs";
import { toComponentPricePoint } from "./component-results";
import { type CreateOptions, createOnce, differsFrom, type Sighting } from "./create";
import type { ComponentPricePointInput, ComponentPricePointUpdateInput } from "./input-types";
import { catalogHandle } from "./inputs";
import { settledWrite } from "./settle";

/** A component's price points: create, read, list, update (prices included), archive, unarchive, make default. */

const pointsPath = (componentId: number) => `/components/${componentId}/price_points.json`;
const pointPath = (componentId: number, pricePointId: number) => `/components/${componentId}/price_points/${pricePointId}.json`;

function idsOf(componentId: unknown, pricePointId: unknown): [number, number] {
  const problems = [...idProblems(componentId, "componentId"), ...idProblems(pricePointId, "pricePointId")];
  if (problems.length > 0) throw new BillingValidationError("invalid component price point", problems);
  return [componentId as number, pricePointId as number];
}

/** `handle:<handle>`: the contract's other form of `{price_point_id}` ("When using the handle, it must be prefixed with `handle:`"). */
const handleRef = (v: unknown): v is string =>
  typeof v === "string" && v.startsWith("handle:") && catalogHandle.safeParse(v.slice(7)).success;

/**
 * A component price point by id, or by `handle:<handle>` (the contract's Read takes either, and finds
 * an archived one too, which the list may not show). A 404 is a {@link BillingApiError} with status 404.
 */
export async function readComponentPricePoint(t: Transport, componentId: unknown, pricePointId: unknown): Promise<ComponentPricePoint> {
  const [cid, ppid] = handleRef(pricePointId) ? [idsOf(componentId, 1)[0], pricePointId] : idsOf(componentId, pricePointId);
  // A handle's characters (a-z, 0-9, '.', ':', '_', '-') need no escaping in a path.
  const path = typeof ppid === "string" ? `/components/${cid}/price_points/${ppid}.json` : pointPath(cid, ppid);
  const { price_point: p } = await t.call({ method: "GET", path, repeatable: true }, componentPricePointResponse);
  return toComponentPricePoint(p);
}

/** Options of `listComponentPricePoints`. */
export interface ListComponentPricePointsOptions {
  /** Archived price points too (default false). */
  readonly includeArchived?: boolean;
}

/**
 * Every price point of a component, across pages. The contract's list publishes no archived filter
 * (nor does the vendor's SDK), and whether the real service lists archived component price points
 * unasked is not published either. So with `includeArchived` the SDK asks with `include_archived=true`,
 * the parameter the service takes for the products' and components' lists (most plausibly the same
 * here; a service that does not know it ignores it), and without it leaves out those with `archived_at`.
 */
export async function listComponentPricePoints(
  t: Transport,
  componentId: unknown,
  opts: ListComponentPricePointsOptions = {},
): Promise<ComponentPricePoint[]> {
  const cid = idOf(componentId, "componentId", "invalid component price point list");
  const rows = await allPages(
    MAX_COMPONENT_PRICE_POINTS_PER_PAGE,
    async (page) =>
      (
        await t.call(
          {
            method: "GET",
            path: pointsPath(cid),
            repeatable: true,
            query: {
              page,
              per_page: MAX_COMPONENT_PRICE_POINTS_PER_PAGE,
              include_archived: opts.includeArchived ? "true" : undefined,
            },
          },
          componentPricePointListResponse,
        )
      ).price_points,
  );
  return rows.map(toComponentPricePoint).filter((p) => opts.includeArchived || p.archivedAt === undefined);
}

/** A price point by handle among its component's, for a create's read-back; an archived one is not the one created. */
async function findPoint(t: Transport, componentId: number, handle: string): Promise<Sighting<ComponentPricePoint>> {
  const p = (await listComponentPricePoints(t, componentId, { includeArchived: true })).find((x) => x.handle === handle);
  if (!p) return { seen: "not listed" };
  if (p.archivedAt !== undefined) return { seen: `an archived price point (id ${p.id}, archived ${p.archivedAt})` };
  return { found: p };
}

/** Creates a component price point once (see {@link createOnce}). The contract answers 200, not 201. */
export async function createComponentPricePoint(
  t: Transport,
  componentId: unknown,
  input: ComponentPricePointInput,
  opts: Omit<CreateOptions, "uniquenessToken"> & { uniquenessToken?: unknown },
): Promise<ComponentPricePoint> {
  const p = parsed(componentPricePointInput, input, "invalid component price point", undefined, [
    ...idProblems(componentId, "componentId"),
    ...tokenProblems(opts.uniquenessToken),
  ]);
  const cid = componentId as number;
  const token = (opts.uniquenessToken as string | undefined) ?? randomUUID();
  return createOnce(
    t,
    {
      kind: "component price point",
      handle: p.handle,
      uniquenessToken: token,
      request: {
        method: "POST",
        path: pointsPath(cid),
        repeatable: false,
        body: { price_point: componentPricePointCreateBody(p), uniqueness_token: token },
      },
      answer: componentPricePointResponse,
      result: (r) => toComponentPricePoint(r.price_point),
      find: () => findPoint(t, cid, p.handle),
      differs: (o) => differsFrom(o.id, [["name", p.name, o.name]]),
    },
    { ...opts, uniquenessToken: token },
  );
}

/** Whether two tier lists price the same (unit prices compared as numbers: "5" and "5.00" are one price). */
export function sameTiers(
  a: readonly PriceTier[],
  b: readonly { startingQuantity: number; endingQuantity?: number; unitPrice: number | string }[],
): boolean {
  return (
    a.length === b.length &&
    a.every(
      (t, i) =>
        t.startingQuantity === b[i].startingQuantity &&
        t.endingQuantity === b[i].endingQuantity &&
        Number(t.unitPrice) === Number(b[i].unitPrice),
    )
  );
}

/**
 * Changes a price point (`PUT`): the fields given; with `prices`, its tiers are read first (their
 * ids) and rewritten in the contract's `Update Price` form (see `componentPricePointUpdateBody`). New
 * prices apply to every subscription on the price point. Repeated like a read; after a failure
 * that may have applied (a repeat whose `_destroy`ed ids are gone is refused), read back to see
 * whether every field given holds.
 */
export async function updateComponentPricePoint(
  t: Transport,
  componentId: unknown,
  pricePointId: unknown,
  input: ComponentPricePointUpdateInput,
): Promise<ComponentPricePoint> {
  const [cid, ppid] = idsOf(componentId, pricePointId);
  const u = parsed(componentPricePointUpdateInput, input, "invalid component price point update");
  let existing: { id: number; endingQuantity: number | undefined }[] = [];
  if (u.prices) {
    const { price_point: now } = await t.call({ method: "GET", path: pointPath(cid, ppid), repeatable: true }, componentPricePointResponse);
    existing = [...(now.prices ?? [])]
      .filter((p): p is typeof p & { id: number } => typeof p.id === "number" && p.id > 0)
      .sort((a, b) => a.starting_quantity - b.starting_quantity)
      .map((p) => ({ id: p.id, endingQuantity: p.ending_quantity ?? undefined }));
  }
  return settledWrite(
    t,
    { method: "PUT", path: pointPath(cid, ppid), repeatable: true, body: componentPricePointUpdateBody(u, existing) },
    componentPricePointResponse,
    (r) => toComponentPricePoint(r.price_point),
    async () => {
      const back = await readComponentPricePoint(t, cid, ppid);
      const held =
        (u.handle === undefined || back.handle === u.handle) &&
        (u.name === undefined || back.name === u.name) &&
        (u.pricingScheme === undefined || back.pricingScheme === u.pricingScheme) &&
        (u.interval === undefined || back.interval === u.interval) &&
        (u.prices === undefined || sameTiers(back.prices, u.prices));
      return held ? back : undefined;
    },
  );
}

/** Archives a component price point (`DELETE`); after an attempt that may have applied, one read back archived is the result. */
export async function archiveComponentPricePoint(t: Transport, componentId: unknown, pricePointId: unknown): Promise<ComponentPricePoint> {
  const [cid, ppid] = idsOf(componentId, pricePointId);
  return settledWrite(
    t,
    { method: "DELETE", path: pointPath(cid, ppid), repeatable: true },
    componentPricePointResponse,
    (r) => toComponentPricePoint(r.price_point),
    async () => {
      const p = await readComponentPricePoint(t, cid, ppid);
      return p.archivedAt !== undefined ? p : undefined;
    },
  );
}

/** Unarchives a component price point (`PUT …/unarchive.json`). */
export async function unarchiveComponentPricePoint(
  t: Transport,
  componentId: unknown,
  pricePointId: unknown,
): Promise<ComponentPricePoint> {
  const [cid, ppid] = idsOf(componentId, pricePointId);
  return settledWrite(
    t,
    { method: "PUT", path: `/components/${cid}/price_points/${ppid}/unarchive.json`, repeatable: true },
    componentPricePointResponse,
    (r) => toComponentPricePoint(r.price_point),
    async () => {
      const p = await readComponentPricePoint(t, cid, ppid);
      return p.archivedAt === undefined ? p : undefined;
    },
  );
}

/**
 * Makes a price point its component's default (`PUT …/default.json`; existing subscriptions keep
 * theirs). The service answers with the component: the price point is then read, so what comes back
 * is the price point as it now is.
 */
export async function setDefaultComponentPricePoint(
  t: Transport,
  componentId: unknown,
  pricePointId: unknown,
): Promise<ComponentPricePoint> {
  const [cid, ppid] = idsOf(componentId, pricePointId);
  await settledWrite(
    t,
    { method: "PUT", path: `/components/${cid}/price_points/${ppid}/default.json`, repeatable: true },
    componentResponse,
    () => true,
    async () => ((await readComponentPricePoint(t, cid, ppid)).type === "default" ? true : undefined),
  );
  return readComponentPricePoint(t, cid, ppid);
}
