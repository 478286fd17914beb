import { randomUUID } from "node:crypto";
import { BillingError, BillingValidationError, PricePointsPartialFailureError } from "../errors";
import { type PricePointInput, type PricePointUpdateInput, pricePointInput, pricePointUpdateInput } from "../inputs";
import { listPricePoints, readProduct } from "../products";
import type { PricePoint } from "../results";
import type { Transport } from "../transport";
import { pricePointResponse, productResponse } from "../wire";
import { pricePointCreateBody } from "./bodies";
import { idProblems, parsed, problemsUnder, tokenProblems } from "./checks";
import { type CreateOptions, createOnce, differsFrom, type Sighting } from "./create";
import { settledWrite } from "./settle";
import { toPricePoint } from "./to-results";

/** A product's price points: create (one or many), read, update, archive, unarchive, promote to default. */

const pointsPath = (productId: number) => `/products/${productId}/price_points.json`;
const pointPath = (productId: number, pricePointId: number) => `/products/${productId}/price_points/${pricePointId}.json`;

/** Both ids of a price point operation, checked together. */
function idsOf(productId: unknown, pricePointId: unknown): [number, number] {
  const problems = [...idProblems(productId, "productId"), ...idProblems(pricePointId, "pricePointId")];
  if (problems.length > 0) throw new BillingValidationError("invalid price point", problems);
  return [productId as number, pricePointId as number];
}

/** A price point by id. A 404 is a {@link BillingApiError} with status 404. */
export async function readPricePoint(t: Transport, productId: unknown, pricePointId: unknown): Promise<PricePoint> {
  const [pid, ppid] = idsOf(productId, pricePointId);
  const { price_point: p } = await t.call({ method: "GET", path: pointPath(pid, ppid), repeatable: true }, pricePointResponse);
  return toPricePoint(p);
}

/**
 * A price point by handle among its product's, archived ones included, for a create's read-back.
 * An archived one is not the one created (archiving does not free a handle).
 */
async function findPricePoint(t: Transport, productId: number, handle: string): Promise<Sighting<PricePoint>> {
  const p = (await listPricePoints(t, productId, { includeArchived: true })).find((x) => x.handle === handle);
  if (!p) return { seen: "not listed" };
  if (p.archivedAt !== undefined) return { seen: `an archived price point (id ${p.id}, archived ${p.archivedAt})` };
  return { found: p };
}

type Opts = Omit<CreateOptions, "uniquenessToken"> & { uniquenessToken?: unknown };

function createChecked(t: Transport, productId: number, p: ReturnType<typeof pricePointInput.parse>, token: string, opts: Opts) {
  return createOnce(
    t,
    {
      kind: "price point",
      handle: p.handle,
      uniquenessToken: token,
      request: {
        method: "POST",
        path: pointsPath(productId),
        repeatable: false,
        body: { price_point: pricePointCreateBody(p), uniqueness_token: token },
      },
      answer: pricePointResponse,
      result: (r) => toPricePoint(r.price_point),
      find: () => findPricePoint(t, productId, p.handle),
      differs: (o) =>
        differsFrom(o.id, [
          ["name", p.name, o.name],
          ["priceInCents", p.priceInCents, o.pricing?.priceInCents],
        ]),
    },
    { ...opts, uniquenessToken: token },
  );
}

/** Creates a price point once (see {@link createOnce}): never two, whatever fails. */
export async function createPricePoint(t: Transport, productId: unknown, input: PricePointInput, opts: Opts): Promise<PricePoint> {
  const p = parsed(pricePointInput, input, "invalid price point", undefined, [
    ...idProblems(productId, "productId"),
    ...tokenProblems(opts.uniquenessToken),
  ]);
  return createChecked(t, productId as number, p, (opts.uniquenessToken as string | undefined) ?? randomUUID(), opts);
}

/**
 * Creates many price points of a product, each once and with its own token, at most
 * `maxConcurrency` at a time. Every input is checked before anything is sent (problems named
 * `[index].property`; two inputs with one handle are refused). Results are in the inputs' order.
 * When some fail: {@link PricePointsPartialFailureError}, with what was created and each failure.
 */
export async function createPricePoints(
  t: Transport,
  productId: unknown,
  inputs: readonly PricePointInput[],
  maxConcurrency: number,
  opts: Omit<Opts, "uniquenessToken">,
): Promise<PricePoint[]> {
  const problems = idProblems(productId, "productId");
  if (!Array.isArray(inputs)) problems.push({ property: "pricePoints", message: "must be an array of price points" });
  const list = Array.isArray(inputs) ? inputs : [];
  const first = new Map<string, number>();
  list.forEach((input, i) => {
    problems.push(...problemsUnder(pricePointInput, input, `[${i}]`));
    const handle = (input as { handle?: unknown } | undefined)?.handle;
    if (typeof handle !== "string") return;
    const j = first.get(handle);
    if (j === undefined) first.set(handle, i);
    else
      problems.push({
        property: `[${i}].handle`,
        message: `"${handle}" is also the handle of [${j}]: a product's price points need distinct handles`,
      });
  });
  if (problems.length > 0) throw new BillingValidationError("invalid price points", problems);
  const pid = productId as number;
  const checked = list.map((input) => pricePointInput.parse(input));

  const results: (PricePoint | undefined)[] = new Array(checked.length);
  const failures: { index: number; handle: string; error: BillingError }[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < checked.length; i = next++) {
      try {
        results[i] = await createChecked(t, pid, checked[i], randomUUID(), opts);
      } catch (err) {
        if (!(err instanceof BillingError)) throw err;
        failures.push({ index: i, handle: checked[i].handle, error: err });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(maxConcurrency, checked.length)) }, worker));
  if (failures.length > 0) {
    failures.sort((a, b) => a.index - b.index);
    const created = results.flatMap((pricePoint, index) => (pricePoint ? [{ index, pricePoint }] : []));
    throw new PricePointsPartialFailureError(pid, created, failures as typeof failures & { 0: (typeof failures)[number] });
  }
  return results as PricePoint[];
}

/**
 * Changes a price point's handle and/or price, the only fields the service's update takes. A PUT of
 * values: repeated like a read.
 */
export async function updatePricePoint(
  t: Transport,
  productId: unknown,
  pricePointId: unknown,
  input: PricePointUpdateInput,
): Promise<PricePoint> {
  const [pid, ppid] = idsOf(productId, pricePointId);
  const u = parsed(pricePointUpdateInput, input, "invalid price point update");
  const body = {
    price_point: {
      ...(u.handle === undefined ? {} : { handle: u.handle }),
      ...(u.priceInCents === undefined ? {} : { price_in_cents: u.priceInCents }),
    },
  };
  return settledWrite(
    t,
    { method: "PUT", path: pointPath(pid, ppid), repeatable: true, body },
    pricePointResponse,
    (r) => toPricePoint(r.price_point),
    async () => {
      const back = await readPricePoint(t, pid, ppid);
      const held =
        (u.handle === undefined || back.handle === u.handle) &&
        (u.priceInCents === undefined || back.pricing?.priceInCents === u.priceInCents);
      return held ? back : undefined;
    },
  );
}

/**
 * Archives a price point (`DELETE`; the default one cannot be: the service's 422 "Cannot archive
 * the default price point."). After an attempt that may have applied, one read back as archived is the result.
 */
export async function archivePricePoint(t: Transport, productId: unknown, pricePointId: unknown): Promise<PricePoint> {
  const [pid, ppid] = idsOf(productId, pricePointId);
  return settledWrite(
    t,
    { method: "DELETE", path: pointPath(pid, ppid), repeatable: true },
    pricePointResponse,
    (r) => toPricePoint(r.price_point),
    async () => {
      const p = await readPricePoint(t, pid, ppid);
      return p.archivedAt !== undefined ? p : undefined;
    },
  );
}

/** Unarchives a price point (`PATCH …/unarchive.json`). */
export async function unarchivePricePoint(t: Transport, productId: unknown, pricePointId: unknown): Promise<PricePoint> {
  const [pid, ppid] = idsOf(productId, pricePointId);
  return settledWrite(
    t,
    { method: "PATCH", path: `/products/${pid}/price_points/${ppid}/unarchive.json`, repeatable: true },
    pricePointResponse,
    (r) => toPricePoint(r.price_point),
    async () => {
      const p = await readPricePoint(t, pid, ppid);
      return p.archivedAt === undefined ? p : undefined;
    },
  );
}

/**
 * Makes a price point its product's default (`PATCH …/default.json`; the old default becomes
 * "catalog"). The service answers with the product: the price point is then read, so that what
 * comes back is the price point as it now is.
 */
export async function promotePricePoint(t: Transport, productId: unknown, pricePointId: unknown): Promise<PricePoint> {
  const [pid, ppid] = idsOf(productId, pricePointId);
  await settledWrite(
    t,
    { method: "PATCH", path: `/products/${pid}/price_points/${ppid}/default.json`, repeatable: true },
    productResponse,
    () => true,
    async () => ((await readProduct(t, pid)).defaultPricePointId === ppid ? true : undefined),
  );
  return readPricePoint(t, pid, ppid);
}
