import { readFileSync } from "node:fs";
import path from "node:path";
import OpenAPIBackend, { type Document } from "openapi-backend";

/**
 * The published contract, patched where the service knowingly answers outside
 * it, and a strict check of one answer against it: an answer whose status or
 * content type the (patched) contract does not list is a failure, not a pass
 * (openapi-backend alone passes anything it has no schema for).
 */

/** The service's published contract, vendored in contract/ so the check never depends on a neighbouring folder. */
export const CONTRACT = path.resolve(__dirname, "../../contract/advanced-billing.openapi.json");
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

type Json = Record<string, any>;
type Operation = { operationId: string; method: string; path: string; op: Json };

const errorList = {
  type: "object",
  required: ["errors"],
  properties: { errors: { type: "array", minItems: 1, items: { type: "string" } } },
};
const jsonResponse = (description: string, schema: Json) => ({ description, content: { "application/json": { schema } } });
const textResponse = (description: string, type: string, pattern: string) => ({
  description,
  content: { [type]: { schema: { type: "string", pattern } } },
});

export const USAGE_VIOLATION =
  "^Your request was denied due to a usage violation\\. You can track this request with support by referencing [0-9a-f]{8,}$";
const GATEWAY_PAGE = "^<html>\\r\\n<head><title>50[234] [A-Za-z -]+</title></head>";

/** Every departure from the published contract, each with its reason. Applied in order to a copy. */
export const PATCHES: { what: string; why: string; apply(ops: Operation[]): void }[] = [
  {
    what: "GET /webhooks.json answers 200 (the schema of its 201)",
    why: "the published spec lists only 201 for this read; the service answers 200 (a GET creates nothing)",
    apply: (ops) => {
      const list = ops.find((o) => o.operationId === "listWebhooks")!.op;
      list.responses["200"] = list.responses["201"];
    },
  },
  {
    what: "Webhook.last_error, last_error_at, last_sent_at, last_sent_url may be null",
    why:
      "the contract types them as strings, but says the error fields are cleared on acceptance and writes accepted_at: null " +
      "in its own example; a webhook never sent (pending, paused) or since accepted (successful) has them null",
    apply: (ops) => {
      const item = ops.find((o) => o.operationId === "listWebhooks")!.op.responses["201"].content["application/json"].schema.items;
      const webhook = item.properties.webhook.properties;
      for (const k of ["last_error", "last_error_at", "last_sent_at", "last_sent_url"])
        webhook[k] = { ...webhook[k], type: ["string", "null"] };
    },
  },
  {
    what: "POST /reason_codes.json answers 201 (the schema of its 200)",
    why:
      "the published spec lists only 200 for this create; the vendor's end-to-end suite, run against a real site, expects 201 " +
      "(maxio-com/ab-typescript-sdk e2e/src/reasonCodesController/reasonCodes.spec.ts), as the service's other creates answer",
    apply: (ops) => {
      const create = ops.find((o) => o.operationId === "createReasonCode")!.op;
      create.responses["201"] = create.responses["200"];
    },
  },
  {
    what: "POST /sites/clear_data.json answers 403 with an error list on a live site",
    why:
      "the operation's own description says attempts on a site in live mode get 403 FORBIDDEN, but lists no 403 response; " +
      "the body is not published, so the simulator answers its usual error list",
    apply: (ops) => {
      ops.find((o) => o.operationId === "clearSite")!.op.responses["403"] = jsonResponse("Forbidden", errorList);
    },
  },
  {
    what: "every operation may answer 429 with the text/plain usage-violation message",
    why: "the service's API Guidelines word their 429 this way (not JSON); the contract lists no 429, though the service caps concurrent requests per site",
    apply: (ops) => {
      for (const o of ops) o.op.responses["429"] = textResponse("Too Many Requests", "text/plain", USAGE_VIOLATION);
    },
  },
  {
    what: "every POST/PUT may answer 409 with an error list",
    why: "duplicate prevention (a repeated uniqueness_token) is documented in the vendor's guides, not in the contract",
    apply: (ops) => {
      for (const o of ops) if (o.method === "post" || o.method === "put") o.op.responses["409"] ??= jsonResponse("Conflict", errorList);
    },
  },
  {
    what: "operations with an id or handle in the path, and lookups by handle or code, may answer 404 with an error list",
    why: "an unknown subscription, product, component or coupon code is not found (findCoupon's description says so); the contract lists 404 only for some operations",
    apply: (ops) => {
      for (const o of ops)
        if (o.path.includes("{") || /\/(lookup|find)\.json$/.test(o.path)) o.op.responses["404"] ??= jsonResponse("Not Found", errorList);
    },
  },
  {
    what: "POST /components/{component_id}/price_points.json answers 422 with an object of field lists",
    why:
      "the contract lists no 422 for this create; the vendor's client reads it as ErrorArrayMapResponse " +
      "(maxio-com/ab-typescript-sdk src/controllers/componentPricePointsController.ts, createComponentPricePoint), the shape " +
      "the contract publishes for the same price point's update",
    apply: (ops) => {
      const update = ops.find((o) => o.operationId === "updateComponentPricePoint")!.op;
      ops.find((o) => o.operationId === "createComponentPricePoint")!.op.responses["422"] = update.responses["422"];
    },
  },
  {
    what: "every operation may answer 422 with an error list",
    why: "the contract lists 422 only for some operations; a body or query the service cannot use is refused in its usual error format",
    apply: (ops) => {
      for (const o of ops) o.op.responses["422"] ??= jsonResponse("Unprocessable Entity", errorList);
    },
  },
  {
    what: "every operation may answer 401 with an error list",
    why: "the contract declares Basic/Bearer security but no 401 response; the wording is the simulator's (the service's is not published)",
    apply: (ops) => {
      for (const o of ops) o.op.responses["401"] ??= jsonResponse("Unauthorized", errorList);
    },
  },
  {
    what: "operations with a request body may answer 400 (malformed JSON) and 413 (body too large) with an error list",
    why: "the contract is silent on bodies that are not JSON or too large; the simulator refuses them in the usual error format",
    apply: (ops) => {
      for (const o of ops) {
        if (!o.op.requestBody) continue;
        o.op.responses["400"] ??= jsonResponse("Bad Request", errorList);
        o.op.responses["413"] ??= jsonResponse("Payload Too Large", errorList);
      }
    },
  },
  {
    what: "every operation may answer 500 with an error list and 502/503/504 with a gateway's HTML page",
    why: "failures the contract does not describe: the application answers in its own format, the load balancer in front of it in HTML",
    apply: (ops) => {
      for (const o of ops) {
        o.op.responses["500"] ??= jsonResponse("Internal Server Error", errorList);
        for (const s of ["502", "503", "504"]) o.op.responses[s] ??= textResponse("Gateway failure", "text/html", GATEWAY_PAGE);
      }
    },
  },
  {
    what: "a 404 the contract lists without a body (updateEndpoint, deleteSubscription) may carry an error list",
    why:
      "the contract gives PUT /endpoints/{endpoint_id}.json a 404 with no content at all, so the shared 404 patch (which fills only " +
      "operations that list no 404) leaves it unable to accept any answer; the simulator answers every unknown id with its error list",
    apply: (ops) => {
      for (const o of ops) {
        const notFound = o.op.responses?.["404"];
        if (notFound && !notFound.content) notFound.content = { "application/json": { schema: errorList } };
      }
    },
  },
];

export function contractDefinition(patched = true): Json {
  const doc = JSON.parse(readFileSync(CONTRACT, "utf8"));
  const ops: Operation[] = [];
  for (const [p, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (typeof op === "object" && op !== null && typeof op.operationId === "string")
        ops.push({ operationId: op.operationId, method, path: p, op });
    }
  }
  if (patched) for (const patch of PATCHES) patch.apply(ops);
  return doc;
}

export interface ContractAnswer {
  method: string;
  /** Path with or without a query string. */
  path: string;
  status: number;
  contentType: string | null;
  text: string;
}

export interface ContractCheck {
  /** The operation the request is, or undefined when the contract has none (an unknown path or method). */
  operationOf(method: string, path: string): string | undefined;
  /** Problems with this answer; empty when it is one the patched contract allows. */
  problems(a: ContractAnswer): string[];
  /**
   * Compiles these operations' response schemas now (a subscription's takes
   * about half a second), for tests whose timing windows must not absorb it.
   */
  warm(...operationIds: string[]): void;
}

const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/**
 * JSON.parse for validation. An integer past 2^53 parses to the nearest
 * double, and int64's maximum rounds up to 2^63, which openapi-backend's
 * int64 range check then refuses. So each such integer is replaced by a
 * stand-in with the same verdict, decided on its exact text: within int64,
 * MAX_SAFE_INTEGER; outside it, 2^64 (the sign kept).
 */
function parseForAjv(text: string): unknown {
  return JSON.parse(text, (_key: string, value: unknown, ctx?: { source?: string }) => {
    if (typeof value !== "number" || Number.isSafeInteger(value) || !ctx?.source || !/^-?\d+$/.test(ctx.source)) return value;
    const exact = BigInt(ctx.source);
    const sign = exact < 0n ? -1 : 1;
    return exact >= INT64.min && exact <= INT64.max ? sign * Number.MAX_SAFE_INTEGER : sign * 2 ** 64;
  });
}

const shared = new Map<boolean, Promise<ContractCheck>>();

/** One initialised check per test file (ajv compiles lazily per operation); `patched: false` is the contract as published. */
export function contractCheck(patched = true): Promise<ContractCheck> {
  let check = shared.get(patched);
  if (!check) {
    check = build(patched);
    shared.set(patched, check);
  }
  return check;
}

/**
 * An initialised validator (ajv through openapi-backend) of the contract, patched or as published,
 * RFC 3339 date-times checked rather than ignored: for requests, and for checks of single schemas.
 */
export async function contractApi(patched = false): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: contractDefinition(patched) as Document,
    quick: true,
    validate: true,
    customizeAjv: (ajv) => ajv.addFormat("date-time", (s: string) => RFC3339.test(s) && !Number.isNaN(Date.parse(s))),
  });
  await api.init();
  return api;
}

async function build(patched: boolean): Promise<ContractCheck> {
  const api = await contractApi(patched);
  // A path fits the templates whose literal segments it has and whose integer parameters it has digits for:
  // `/subscriptions/metafields.json` is listMetafields (`/{resource_type}/metafields.json`), not readSubscription
  // (`/subscriptions/{subscription_id}.json`, an integer id), which openapi-backend's matcher picks as it ignores
  // parameter types. Among several, a literal segment beats a parameter at the first place they differ (`bulk`,
  // `lookup`). A path no template fits so (an id given as `handle:x`) is left to openapi-backend.
  const templates = Object.entries<Json>((api.definition.paths ?? {}) as Record<string, Json>).flatMap(([template, item]) =>
    Object.entries<Json>(item)
      .filter(([, op]) => typeof op === "object" && op !== null && typeof op.operationId === "string")
      .map(([method, op]) => {
        const integers = new Set(
          [...(item.parameters ?? []), ...(op.parameters ?? [])]
            .filter((prm: Json) => prm.in === "path" && prm.schema?.type === "integer")
            .map((prm: Json) => prm.name as string),
        );
        const source = template
          .replace(/[.]/g, "\\.")
          .replace(/\{([^}]+)\}/g, (_m, name: string) => (integers.has(name) ? "\\d+" : "[^/]+"));
        return {
          method: method.toUpperCase(),
          pattern: new RegExp(`^${source}$`),
          literals: template.split("/").map((seg) => !seg.includes("{")),
          operationId: op.operationId as string,
        };
      }),
  );
  const operationOf = (method: string, p: string) => {
    const bare = p.split("?")[0];
    const found = templates.filter((t) => t.method === method.toUpperCase() && t.pattern.test(bare));
    found.sort((a, b) => {
      for (let i = 0; i < Math.max(a.literals.length, b.literals.length); i++)
        if (a.literals[i] !== b.literals[i]) return a.literals[i] ? -1 : 1;
      return 0;
    });
    return found[0]?.operationId ?? api.matchOperation({ method, path: bare, headers: {} })?.operationId;
  };
  return {
    operationOf,
    warm(...operationIds) {
      for (const id of operationIds) api.validator.getStatusBasedResponseValidatorForOperation(id);
    },
    problems(a) {
      const operationId = operationOf(a.method, a.path);
      if (!operationId) return [`${a.method} ${a.path} is not an operation of the contract`];
      const op = api.getOperation(operationId)! as unknown as Json;
      const response = op.responses?.[String(a.status)] ?? op.responses?.[`${Math.floor(a.status / 100)}XX`] ?? op.responses?.default;
      if (!response) return [`${operationId}: status ${a.status} is not in the contract (${Object.keys(op.responses ?? {}).join(", ")})`];
      // The contract publishes some successes with no content at all (archiveOffer, clearSite, deleteMetafield): no body then.
      if (!response.content)
        return a.text === "" ? [] : [`${operationId} ${a.status}: the contract gives this answer no body, got: ${a.text.slice(0, 200)}`];
      const type = (a.contentType ?? "").split(";")[0].trim();
      const media = response.content?.[type];
      if (!media)
        return [
          `${operationId} ${a.status}: content type '${type}' is not in the contract (${Object.keys(response.content ?? {}).join(", ")})`,
        ];
      if (type !== "application/json") {
        return new RegExp(media.schema.pattern).test(a.text)
          ? []
          : [`${operationId} ${a.status}: body does not match ${media.schema.pattern}: ${a.text.slice(0, 200)}`];
      }
      let body: unknown;
      try {
        body = parseForAjv(a.text);
      } catch {
        return [`${operationId} ${a.status}: body is not JSON: ${a.text.slice(0, 200)}`];
      }
      const v = api.validator.validateResponse(body, operationId, a.status);
      return (v.errors ?? []).map(
        (e) => `${operationId} ${a.status}: ${e.instancePath || "(root)"} ${e.message} ${JSON.stringify(e.params)}`,
      );
    },
  };
}
