import OpenAPIBackend, { type Document } from "openapi-backend";
import { contractDefinition } from "../../contract/validator";

/**
 * The catalog requests the SDK sends, judged against the contract's request schemas (as published).
 * Where the shared plan makes the SDK send what the contract does not describe, the deviation is
 * listed here with its reason; a request is valid when, each listed deviation it carries undone,
 * the rest validates. So a listed deviation can hide nothing else, and an unlisted one fails.
 */

export interface SentRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  /** The body as JSON text, or "" for none. */
  readonly text: string;
}

interface Req {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: any;
}

/** A request's deviations from the published contract, each with why it is sent anyway and how to undo it for the check. */
export const REQUEST_DEVIATIONS: readonly {
  readonly operationId: string;
  readonly what: string;
  readonly why: string;
  readonly applies: (r: Req) => boolean;
  readonly undo: (r: Req) => Req;
}[] = [
  {
    operationId: "readProductFamily",
    what: "{id} as handle:x",
    why: "the contract types {id} as an integer, while the same operation's description documents the `handle:my-family` form",
    applies: (r) => /\/product_families\/handle:[^/]+\.json$/.test(r.path),
    undo: (r) => ({ ...r, path: r.path.replace(/handle:[^/]+\.json$/, "1.json") }),
  },
  {
    operationId: "listProductPricePoints",
    what: "archived in the query",
    why:
      "how the vendor's own SDK asks for archived price points (@maxio-com/advanced-billing-sdk 6.1.0, listProductPricePoints: " +
      "`archived`); the vendored contract has no such parameter. Sent only when archived price points are asked for (a create's read-back)",
    applies: (r) => "archived" in r.query,
    undo: (r) => {
      const { archived: _, ...query } = r.query;
      return { ...r, query };
    },
  },
  {
    operationId: "listComponentPricePoints",
    what: "include_archived in the query",
    why:
      "the parameter the contract publishes for the products' and components' lists (include_archived); this list publishes no archived " +
      "filter and the vendor's SDK sends none. Sent only when archived price points are asked for (a create's read-back, an export with archived objects)",
    applies: (r) => "include_archived" in r.query,
    undo: (r) => {
      const { include_archived: _, ...query } = r.query;
      return { ...r, query };
    },
  },
  {
    operationId: "updateProduct",
    what: "a partial product (without some of name, description, price_in_cents, interval, interval_unit)",
    why:
      "the contract gives the update the create's schema, required fields included; the service updates only the fields named " +
      "(the plan: 'Without a pricing change it only updates the named fields'), and sending the pricing unchanged is a no-op anyway",
    applies: (r) => ["name", "description", "price_in_cents", "interval", "interval_unit"].some((k) => !(k in (r.body?.product ?? {}))),
    undo: (r) => ({
      ...r,
      body: {
        ...r.body,
        product: { name: "n", description: "", price_in_cents: 0, interval: 1, interval_unit: "month", ...r.body.product },
      },
    }),
  },
  {
    operationId: "updateProduct",
    what: 'expiration_interval_unit "never"',
    why: "the contract's request enum is day/month, its answers' Extended Interval Unit has never: an update that removes an expiration says so",
    applies: (r) => r.body?.product?.expiration_interval_unit === "never",
    undo: (r) => {
      const { expiration_interval_unit: _, ...product } = r.body.product;
      return { ...r, body: { ...r.body, product } };
    },
  },
  // Not createOrUpdateCouponCurrencyPrices: a coupon's amount is whole units (sdk/catalog/currency-inputs.ts), never a fraction.
  ...(["createProductCurrencyPrices", "updateProductCurrencyPrices", "updateCurrencyPrices"] as const).map((operationId) => ({
    operationId,
    what: "a fractional price",
    why:
      "the contract types these requests' `price` as an integer, while amounts are in the currency's own units (its example: " +
      '`"price": 123` is `"€123,00"`), its answers carry numbers and decimal text, and the vendor\'s later SDK types an update\'s price ' +
      "as a Float (maxio-com/ab-ruby-sdk doc/models/update-currency-price.md): 9.50 is sent as 9.5, not refused",
    applies: (r: Req) =>
      (r.body?.currency_prices ?? []).some((c: { price?: unknown }) => typeof c.price === "number" && !Number.isInteger(c.price)),
    undo: (r: Req) => ({
      ...r,
      body: { ...r.body, currency_prices: r.body.currency_prices.map((c: { price: number }) => ({ ...c, price: Math.round(c.price) })) },
    }),
  })),
];

/**
 * Patterns of the published contract written in Ruby's regex dialect, which the validator (ajv, `u`
 * flag) cannot compile: each rewritten to JavaScript's with the same meaning, so that the operations
 * carrying them are validated rather than failing on the pattern. `\A` and `\z` are Ruby's anchors of
 * the whole string. Found on `component_id` of `/product_families/{product_family_id}/components/{component_id}.json`
 * (readComponent, updateProductFamilyComponent, archiveComponent).
 */
export const RUBY_PATTERNS: readonly { readonly ruby: RegExp; readonly js: string; readonly why: string }[] = [
  { ruby: /^\/?\\A/, js: "^", why: "Ruby's \\A: start of the string (the contract also wraps the pattern in slashes)" },
  { ruby: /\\z\/?$/, js: "$", why: "Ruby's \\z: end of the string" },
];

/** The contract as published, its Ruby patterns rewritten ({@link RUBY_PATTERNS}). */
function requestContract(): Document {
  const doc = contractDefinition(false);
  const walk = (o: unknown): void => {
    if (typeof o !== "object" || o === null) return;
    for (const [k, v] of Object.entries(o)) {
      if (k === "pattern" && typeof v === "string" && /\\A|\\z/.test(v))
        (o as Record<string, unknown>)[k] = RUBY_PATTERNS.reduce((p, r) => p.replace(r.ruby, r.js), v);
      else walk(v);
    }
  };
  walk(doc.paths);
  return doc as Document;
}

async function contractApi(): Promise<OpenAPIBackend> {
  // As tests/contract/validator.ts's contractApi, with the date-time format it adds.
  const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
  const a = new OpenAPIBackend({
    definition: requestContract(),
    quick: true,
    validate: true,
    customizeAjv: (ajv) => ajv.addFormat("date-time", (x: string) => rfc3339.test(x) && !Number.isNaN(Date.parse(x))),
  });
  await a.init();
  return a;
}

let api: Promise<OpenAPIBackend> | undefined;

/**
 * The operation a request is for: of the operations whose path template matches, the first whose path
 * parameters the request's path satisfies (their types and enums), the fewest parameters first. The router
 * alone takes the first template that matches, and the contract's `/subscriptions/{subscription_id}.json`
 * (an integer id) matches `/subscriptions/metafields.json`, which is `/{resource_type}/metafields.json`.
 */
function operationOf(a: OpenAPIBackend, req: Req) {
  const params = (p: string) => (p.match(/\{/g) ?? []).length;
  const template = (p: string) => new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`);
  const candidates = a
    .getOperations()
    .filter((o) => o.method.toUpperCase() === req.method.toUpperCase() && template(o.path).test(req.path))
    .sort((x, y) => params(x.path) - params(y.path));
  const pathFits = (o: (typeof candidates)[number]) => {
    const v = a.validator.validateRequest(req, o);
    return !(v.errors ?? []).some((e) => e.instancePath.startsWith("/path"));
  };
  return candidates.find(pathFits) ?? candidates[0] ?? a.router.matchOperation(req);
}

/**
 * The problems of each request ([] when it validates), and the deviations it carried. A request
 * that matches no operation is a problem.
 */
export async function contractRequestCheck(sent: readonly SentRequest[]): Promise<{ problems: string[]; deviations: string[] }> {
  api ??= contractApi();
  const a = await api;
  const problems: string[] = [];
  const deviations: string[] = [];
  for (const s of sent) {
    const url = new URL(s.url, "http://x");
    let req: Req = {
      method: s.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { accept: "application/json", ...(s.text ? { "content-type": "application/json" } : {}) },
      body: s.text ? JSON.parse(s.text) : undefined,
    };
    const op = operationOf(a, req);
    if (!op) {
      problems.push(`${s.method} ${s.url}: no operation of the contract`);
      continue;
    }
    for (const d of REQUEST_DEVIATIONS) {
      if (d.operationId === op.operationId && d.applies(req)) {
        deviations.push(`${op.operationId}: ${d.what}`);
        req = d.undo(req);
      }
    }
    const v = a.validator.validateRequest(req, operationOf(a, req) ?? op);
    if (!v.valid) problems.push(`${op.operationId} ${s.method} ${s.url}: ${JSON.stringify(v.errors)}`);
  }
  return { problems, deviations: [...new Set(deviations)].sort() };
}
