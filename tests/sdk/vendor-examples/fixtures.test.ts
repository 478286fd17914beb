import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import OpenAPIBackend, { type OpenAPIValidator, ValidationContext } from "openapi-backend";
import { beforeAll, describe, expect, it } from "vitest";
import { CONTRACT, contractApi } from "../../contract/validator";

/**
 * The vendor's own published examples (tests/fixtures/vendor, sources in its README.md and index.json) checked
 * against the vendor's own contract (contract/advanced-billing.openapi.json), and the component and coupon examples
 * (tests/fixtures/vendor/components-coupons) against the contract at their pointers.
 *
 * Every deviation of a published response from the contract's schema is listed below with its reason:
 * the test fails when a new one appears (a fixture or the contract changed) or when a listed one
 * disappears (the table is stale). These are the places where code written "to the contract" would
 * break on what the service is documented to send.
 */

const VENDOR_DIR = path.resolve(__dirname, "../../fixtures/vendor");

interface Target {
  method: string;
  path: string;
  status: number;
}

interface VendorEntry {
  file: string;
  method: string;
  path: string;
  status: number | null;
  kind: "response" | "request";
  source: string;
  notes: string;
  /** Where the value sits in the contract, when it was extracted from it. */
  contract?: { pointer: string[]; fencedJsonBlock?: number };
  /** The contract operation whose schema applies, when the fixture's own endpoint or status is not in the contract. */
  validateAs?: Target;
}

const VENDOR_INDEX: VendorEntry[] = JSON.parse(readFileSync(path.join(VENDOR_DIR, "index.json"), "utf8"));

const isJson = (e: VendorEntry) => e.file.endsWith(".json");

const readFixture = (e: VendorEntry) => readFileSync(path.join(VENDOR_DIR, e.file), "utf8");

const SPACE_NOT_T =
  "published as \"2023-11-2x 06:37:20-05:00\" (a space, not 'T'): not an RFC 3339 date-time as the contract's format says; " +
  "the SDK docs publish the same example with 'T' (price-points-list.200.sdk-doc.json). Parse both.";

const CLEARED =
  'null on an accepted webhook (the field\'s own description: "cleared" when a retry is accepted), ' +
  'but the contract types it "string", not nullable: a successful webhook breaks the contract\'s webhook schema.';

/** fixture → (JSON pointer in the fixture → why the published example breaks the contract there). */
const EXPECTED_RESPONSE_DEVIATIONS: Record<string, Record<string, string>> = {
  "price-point-create.201.json": {
    "/price_point/archived_at": SPACE_NOT_T,
    "/price_point/created_at": SPACE_NOT_T,
    "/price_point/updated_at": SPACE_NOT_T,
  },
  "price-points-list.200.json": {
    "/price_points/0/archived_at": SPACE_NOT_T,
    "/price_points/0/created_at": SPACE_NOT_T,
    "/price_points/0/updated_at": SPACE_NOT_T,
  },
  // A text template (placeholders for most values): only its literal values are checked, property by property.
  "webhooks-list.200.successful.legacy-template.txt": {
    "/0/webhook/last_error": CLEARED,
    "/0/webhook/last_error_at": CLEARED,
    "/1/webhook/last_error": CLEARED,
    "/1/webhook/last_error_at": CLEARED,
  },
};

/** Same, for request bodies against the operation's requestBody schema. */
const EXPECTED_REQUEST_DEVIATIONS: Record<string, Record<string, string>> = {};

describe("the vendor's published examples against the vendor's contract", () => {
  let api: OpenAPIBackend;
  let contract: any;
  let allErrors: ReturnType<OpenAPIValidator["getAjv"]>;

  beforeAll(async () => {
    api = await contractApi();
    contract = JSON.parse(readFileSync(CONTRACT, "utf8"));
    // The same Ajv set-up as the helper's validators (its formats, RFC 3339 date-time), reporting every error, not the first.
    allErrors = api.validator.getAjv(ValidationContext.Response, { allErrors: true });
  });

  function operation(t: Pick<Target, "method" | "path">) {
    const op = contract.paths[t.path]?.[t.method.toLowerCase()];
    if (!op?.operationId) throw new Error(`${t.method} ${t.path}: not in the contract`);
    return op;
  }

  function responseTarget(e: VendorEntry): Target {
    return e.validateAs ?? { method: e.method, path: e.path, status: e.status! };
  }

  /** JSON pointer → messages, for every place the body breaks the schema. */
  function deviations(body: unknown, schema: object): Record<string, string[]> {
    const validate = allErrors.compile(schema); // the contract is plain JSON: no reference cycles to break
    validate(body);
    const out: Record<string, string[]> = {};
    for (const err of validate.errors ?? []) {
      const where = err.instancePath || "/";
      out[where] = [...(out[where] ?? []), `${err.keyword}: ${err.message}`];
    }
    return out;
  }

  it("index.json lists every fixture file, once, and only files that exist", () => {
    // Files only: catalog/ holds the catalog's examples, with an index of its own.
    const files = readdirSync(VENDOR_DIR, { withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name)
      .filter((f) => !["index.json", "README.md", "refresh-from-contract.mjs"].includes(f))
      .sort();
    const listed = VENDOR_INDEX.map((e) => e.file);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(files);
    for (const e of VENDOR_INDEX) {
      expect(["response", "request"], e.file).toContain(e.kind);
      expect(e.source.length, `${e.file}: source`).toBeGreaterThan(20);
      if (e.kind === "response") expect(e.status, `${e.file}: status`).toEqual(expect.any(Number));
    }
  });

  it("the README names every fixture", () => {
    const readme = readFileSync(path.join(VENDOR_DIR, "README.md"), "utf8");
    for (const e of VENDOR_INDEX) expect(readme, e.file).toContain(`\`${e.file}\``);
  });

  it("JSON fixtures are pretty-printed with 2 spaces and end with a newline", () => {
    for (const e of VENDOR_INDEX.filter(isJson))
      expect(readFixture(e), e.file).toBe(JSON.stringify(JSON.parse(readFixture(e)), null, 2) + "\n");
  });

  it("fixtures taken from the contract hold its published values unchanged", () => {
    for (const e of VENDOR_INDEX.filter((x) => x.contract)) {
      let value = e.contract!.pointer.reduce((o, k) => o?.[k], contract);
      expect(value, `${e.file}: nothing at ${e.contract!.pointer.join(".")}`).toBeDefined();
      if (e.contract!.fencedJsonBlock !== undefined) {
        const blocks = [...String(value).matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
        value = blocks[e.contract!.fencedJsonBlock];
      }
      expect(JSON.parse(readFixture(e)), e.file).toEqual(value);
    }
  });

  it("text fixtures are not JSON (plain-text or non-JSON published bodies)", () => {
    for (const e of VENDOR_INDEX.filter((x) => !isJson(x))) expect(() => JSON.parse(readFixture(e)), e.file).toThrow();
    expect(readFixture(VENDOR_INDEX.find((e) => e.file === "429.txt")!)).toMatch(/^Your request was denied due to a usage violation\. /);
  });

  it("the deviation tables name only fixtures that exist", () => {
    const files = new Set(VENDOR_INDEX.map((e) => e.file));
    for (const f of [...Object.keys(EXPECTED_RESPONSE_DEVIATIONS), ...Object.keys(EXPECTED_REQUEST_DEVIATIONS)])
      expect(files, f).toContain(f);
  });

  const responses = VENDOR_INDEX.filter((e) => e.kind === "response" && isJson(e));
  it.each(responses.map((e) => [e.file, e] as const))(
    "response %s: deviations from the contract are exactly the listed ones",
    (_file, e) => {
      const t = responseTarget(e);
      const op = operation(t);
      const schema = op.responses?.[String(t.status)]?.content?.["application/json"]?.schema;
      expect(schema, `${t.method} ${t.path} ${t.status}: no schema in the contract`).toBeDefined();
      const body = JSON.parse(readFixture(e));
      const found = deviations(body, schema);
      expect(Object.keys(found).sort(), `${e.file}: ${JSON.stringify(found, null, 1)}`).toEqual(
        Object.keys(EXPECTED_RESPONSE_DEVIATIONS[e.file] ?? {}).sort(),
      );
      // The project's validator (first error only) agrees on the verdict.
      const verdict = api.validator.validateResponse(body, op.operationId, t.status);
      expect(verdict.valid, e.file).toBe(Object.keys(found).length === 0);
    },
  );

  const requests = VENDOR_INDEX.filter((e) => e.kind === "request" && isJson(e));
  it.each(requests.map((e) => [e.file, e] as const))("request %s: deviations from the contract are exactly the listed ones", (_file, e) => {
    const schema = operation(e).requestBody?.content?.["application/json"]?.schema;
    expect(schema, `${e.method} ${e.path}: no request body schema`).toBeDefined();
    const found = deviations(JSON.parse(readFixture(e)), schema);
    expect(Object.keys(found).sort(), `${e.file}: ${JSON.stringify(found, null, 1)}`).toEqual(
      Object.keys(EXPECTED_REQUEST_DEVIATIONS[e.file] ?? {}).sort(),
    );
  });

  it("the legacy successful-webhook template: its literal values against the contract's webhook schema", () => {
    const e = VENDOR_INDEX.find((x) => x.file === "webhooks-list.200.successful.legacy-template.txt")!;
    const t = responseTarget(e);
    const item = operation(t).responses[String(t.status)].content["application/json"].schema.items;
    const properties = item.properties.webhook.properties;
    const webhooks = readFixture(e).split('{"webhook":{').slice(1);
    expect(webhooks).toHaveLength(2);
    const found: Record<string, string[]> = {};
    webhooks.forEach((text, i) => {
      // Only literal JSON values; the `auto generated` placeholders are not published values.
      const literals = [...text.matchAll(/"(\w+)":(null|true|false|-?\d+|"[^"`]*")/g)];
      expect(literals.map((m) => m[1]).sort()).toEqual(["event", "last_error", "last_error_at", "successful"]);
      for (const [, key, value] of literals) {
        expect(properties[key], `${key} is declared`).toBeDefined();
        for (const [where, messages] of Object.entries(deviations(JSON.parse(value), properties[key]))) {
          const at = `/${i}/webhook/${key}${where === "/" ? "" : where}`;
          found[at] = [...(found[at] ?? []), ...messages];
        }
      }
    });
    expect(Object.keys(found).sort(), JSON.stringify(found, null, 1)).toEqual(Object.keys(EXPECTED_RESPONSE_DEVIATIONS[e.file]).sort());
  });

  it("the 3-D Secure 422 carries fields the contract's Error List Response does not declare", () => {
    const e = VENDOR_INDEX.find((x) => x.file === "migration-3ds-422.json")!;
    const declared = Object.keys(operation(responseTarget(e)).responses["422"].content["application/json"].schema.properties);
    const body = JSON.parse(readFixture(e));
    expect(declared).toEqual(["errors"]);
    expect(
      Object.keys(body)
        .filter((k) => !declared.includes(k))
        .sort(),
    ).toEqual(["action_link", "description", "gateway_payment_id"]);
    expect(body.action_link).toMatch(/^https?:\/\/.+\/3d-secure\/pi_\w+\?one_time_token_id=\d+$/);
  });

  it("sanity: the every-error validator does report several errors in one body", () => {
    const schema = operation({ method: "GET", path: "/subscriptions/{subscription_id}.json" }).responses["200"].content["application/json"]
      .schema;
    const found = deviations({ subscription: { id: "x", created_at: "2016-11-14 14:48:10 -0500", state: 3 } }, schema);
    expect(Object.keys(found).sort()).toEqual(["/subscription/created_at", "/subscription/id", "/subscription/state"]);
  });
});

const COMPONENTS_DIR = path.resolve(__dirname, "../../fixtures/vendor/components-coupons");

interface ComponentsEntry {
  file: string;
  method: string;
  path: string;
  status: number | null;
  kind: "request" | "response";
  operationId: string;
  contract: { pointer: string[] };
}

const COMPONENTS_INDEX: ComponentsEntry[] = JSON.parse(readFileSync(path.join(COMPONENTS_DIR, "index.json"), "utf8"));

const CONTRACT_DOCUMENT = JSON.parse(readFileSync(path.resolve(__dirname, "../../../contract/advanced-billing.openapi.json"), "utf8"));

const fixture = (e: ComponentsEntry) => JSON.parse(readFileSync(path.join(COMPONENTS_DIR, e.file), "utf8"));

describe("the component and coupon fixtures", () => {
  it("index.json lists every fixture file, once, and each still equals the contract at its pointer", () => {
    const files = readdirSync(COMPONENTS_DIR).filter((f) => !["index.json", "README.md", "refresh-from-contract.mjs"].includes(f));
    expect(COMPONENTS_INDEX.map((e) => e.file).sort()).toStrictEqual(files.sort());
    for (const e of COMPONENTS_INDEX)
      expect(fixture(e), e.file).toStrictEqual(e.contract.pointer.reduce((o: any, k) => o?.[k], CONTRACT_DOCUMENT));
  });
});
