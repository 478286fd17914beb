import { randomUUID } from "node:crypto";
import { BillingApiError, BillingValidationError } from "../errors";
import { catalogHandle, type ProductFamilyInput, positiveId, productFamilyInput } from "../inputs";
import type { ProductFamily } from "../results";
import type { Transport } from "../transport";
import { problemsOf } from "../validation";
import { productFamilyListResponse, productFamilyResponse } from "../wire";
import { parsed, tokenProblems } from "./checks";
import { type CreateOptions, createOnce, differsFrom, type Sighting } from "./create";
import { toProductFamily } from "./to-results";

/** Product families: create, read (by id or handle), list. A family has no update and no delete. */

const FAMILIES = "/product_families.json";

/**
 * The path of a family: `/product_families/{id}.json`, or `/product_families/handle:{handle}.json`
 * for a handle (given bare, or already as `handle:x`). The contract types `{id}` as an integer
 * but documents the `handle:` form on this very operation.
 */
function familyPath(idOrHandle: unknown): string {
  if (typeof idOrHandle === "string") {
    const handle = idOrHandle.startsWith("handle:") ? idOrHandle.slice("handle:".length) : idOrHandle;
    const r = catalogHandle.safeParse(handle);
    if (!r.success) throw new BillingValidationError("invalid product family", problemsOf(r.error, "productFamily"));
    return `/product_families/handle:${r.data}.json`;
  }
  const id = positiveId.safeParse(idOrHandle);
  if (!id.success) throw new BillingValidationError("invalid product family", problemsOf(id.error, "productFamily"));
  return `/product_families/${id.data}.json`;
}

/** A family by id, or by handle (a string). A 404 is a {@link BillingApiError} with status 404. */
export async function readProductFamily(t: Transport, idOrHandle: unknown): Promise<ProductFamily> {
  const { product_family: f } = await t.call({ method: "GET", path: familyPath(idOrHandle), repeatable: true }, productFamilyResponse);
  return toProductFamily(f);
}

/**
 * Every family of the site. The contract gives this list no paging parameters (unlike products and
 * price points): one request is the whole list.
 */
export async function listProductFamilies(t: Transport): Promise<ProductFamily[]> {
  const rows = await t.call({ method: "GET", path: FAMILIES, repeatable: true }, productFamilyListResponse);
  // An entry without a real id (a placeholder) is left out rather than returned as family 0.
  return rows.filter((r) => r.product_family.id > 0).map((r) => toProductFamily(r.product_family));
}

/** A family by handle, for a create's read-back: a 404 is "not found", any other failure throws. */
async function findFamily(t: Transport, handle: string): Promise<Sighting<ProductFamily>> {
  try {
    return { found: await readProductFamily(t, handle) };
  } catch (err) {
    if (err instanceof BillingApiError && err.status === 404) return { seen: "not found (404)" };
    throw err;
  }
}

/** Creates a family once (see {@link createOnce}): never two, whatever fails. */
export async function createProductFamily(
  t: Transport,
  input: ProductFamilyInput,
  opts: Omit<CreateOptions, "uniquenessToken"> & { uniquenessToken?: unknown },
): Promise<ProductFamily> {
  const f = parsed(productFamilyInput, input, "invalid product family", undefined, tokenProblems(opts.uniquenessToken));
  const token = (opts.uniquenessToken as string | undefined) ?? randomUUID();
  return createOnce(
    t,
    {
      kind: "product family",
      handle: f.handle,
      uniquenessToken: token,
      request: {
        method: "POST",
        path: FAMILIES,
        repeatable: false,
        body: {
          product_family: { name: f.name, handle: f.handle, ...(f.description === undefined ? {} : { description: f.description }) },
          uniqueness_token: token,
        },
      },
      answer: productFamilyResponse,
      result: (r) => toProductFamily(r.product_family),
      find: () => findFamily(t, f.handle),
      differs: (o) => differsFrom(o.id, [["name", f.name, o.name]]),
    },
    { ...opts, uniquenessToken: token },
  );
}
