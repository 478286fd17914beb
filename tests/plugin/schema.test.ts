import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { BillingProvider } from "../../plugin/provider";
import { packageSchema, type SchemaProperty, tokenOf } from "../../plugin/schema";
import { KINDS, type WebhookEndpoint } from "../../provider";
import type { JsonSchema } from "../../provider/kinds/inputs";
import type { Kind, OutputPropsOf } from "../../provider/kinds/kind";

// The plugin's schema, the kind declarations and the dynamic resources agree: names, types, required
// lists and secrets, each compared with the declaration it comes from (z.toJSONSchema of the kind).

const kinds: Kind[] = Object.values(KINDS).map((m) => m.kind);
type Schema = {
  resources: Record<
    string,
    {
      inputProperties: Record<string, SchemaProperty>;
      requiredInputs: string[];
      properties: Record<string, SchemaProperty>;
      required: string[];
    }
  >;
  types: Record<string, { properties: Record<string, SchemaProperty>; required?: string[] }>;
  config: { variables: Record<string, SchemaProperty> };
  provider: { inputProperties: Record<string, SchemaProperty> };
};
// Built in each test, not at load: Stryker switches a mutant on only once tests start, so a schema built
// while the file loads would be the unmutated one under every mutant.
let schema: Schema;
beforeEach(() => {
  schema = packageSchema(kinds, "0.1.0") as Schema;
});

/** A JSON Schema's shape as one line: `string`, `array<string>`, `{a:integer,b?:string}`. */
function jsonShape(s: JsonSchema): string {
  if (Array.isArray(s.anyOf)) {
    const branches = (s.anyOf as JsonSchema[]).filter((b) => b.type !== "null");
    return branches.length === 1 ? jsonShape(branches[0]) : `oneOf(${branches.map(jsonShape).join("|")})`;
  }
  const types = (Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : []).filter((t) => t !== "null");
  if (types.length > 1) return `oneOf(${types.join("|")})`;
  const t = types[0];
  if (t === "array") return `array<${s.items ? jsonShape(s.items as JsonSchema) : "any"}>`;
  if (t === "object" && s.properties) {
    const required = (s.required as string[] | undefined) ?? [];
    const fields = Object.entries(s.properties as Record<string, JsonSchema>).map(
      ([k, v]) => `${k}${required.includes(k) ? "" : "?"}:${jsonShape(v)}`,
    );
    return `{${fields.join(",")}}`;
  }
  if (t === "object") return "map<any>";
  return t ?? "any";
}

/** A schema property's shape in the same notation, following `#/types/` references. */
function schemaShape(p: SchemaProperty): string {
  if (p.oneOf) return `oneOf(${p.oneOf.map(schemaShape).join("|")})`;
  if (p.$ref === "pulumi.json#/Any") return "any";
  if (p.$ref) {
    const t = schema.types[p.$ref.replace("#/types/", "")];
    const required = t.required ?? [];
    return `{${Object.entries(t.properties)
      .map(([k, v]) => `${k}${required.includes(k) ? "" : "?"}:${schemaShape(v)}`)
      .join(",")}}`;
  }
  if (p.type === "array") return `array<${p.items ? schemaShape(p.items) : "any"}>`;
  if (p.type === "object") return "map<any>";
  return p.type ?? "any";
}

const shapes = (props: Record<string, JsonSchema>) => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, jsonShape(v)]));
const schemaShapes = (props: Record<string, SchemaProperty>) =>
  Object.fromEntries(Object.entries(props).map(([k, v]) => [k, schemaShape(v)]));

describe("the plugin's package schema", () => {
  it("has one resource per kind, by token billing:index:<Type>", () => {
    expect(Object.keys(schema.resources).sort()).toEqual(kinds.map((k) => tokenOf(k.type)).sort());
  });

  describe.each(kinds.map((k) => [k.type, k] as const))("%s", (_, kind) => {
    const resource = () => schema.resources[tokenOf(kind.type)];
    const inputs = z.toJSONSchema(kind.inputs, { io: "input", unrepresentable: "any" }) as JsonSchema;
    const outputs = z.toJSONSchema(kind.outputs, { io: "output", unrepresentable: "any" }) as JsonSchema;

    it("inputs: the declaration's names, types and required list", () => {
      expect(Object.keys(resource().inputProperties)).toEqual(Object.keys(kind.inputs.shape));
      expect(schemaShapes(resource().inputProperties)).toEqual(shapes(inputs.properties as Record<string, JsonSchema>));
      expect([...resource().requiredInputs].sort()).toEqual([...((inputs.required as string[]) ?? [])].sort());
    });

    it("outputs: the declaration's names (those the dynamic resource class registers), types and required list", () => {
      expect(Object.keys(resource().properties)).toEqual(Object.keys(kind.outputs.shape));
      expect(schemaShapes(resource().properties)).toEqual(shapes(outputs.properties as Record<string, JsonSchema>));
      // Required unless it can be null (the SDKs would otherwise type a null as never happening).
      const props = outputs.properties as Record<string, JsonSchema>;
      const canBeNull = (s: JsonSchema) =>
        (Array.isArray(s.type) && (s.type as string[]).includes("null")) ||
        (Array.isArray(s.anyOf) && (s.anyOf as JsonSchema[]).some((b) => b.type === "null"));
      const required = ((outputs.required as string[]) ?? []).filter((name) => !canBeNull(props[name]));
      expect([...resource().required].sort()).toEqual(required.sort());
      expect(required.length).toBeLessThanOrEqual(((outputs.required as string[]) ?? []).length);
    });

    it("replace-on-change marks the inputs the kind replaces on", () => {
      const marked = Object.entries(resource().inputProperties)
        .filter(([, p]) => p.willReplaceOnChanges)
        .map(([k]) => k);
      expect(marked).toEqual(
        kind.replaceOn === "all"
          ? Object.keys(kind.inputs.shape)
          : Object.keys(kind.inputs.shape).filter((k) => (kind.replaceOn as readonly string[]).includes(k)),
      );
    });

    it("docs: every input and output carries its declaration's description", () => {
      for (const [name, p] of Object.entries({ ...resource().inputProperties, ...resource().properties })) {
        expect(p.description, name).toEqual(expect.any(String));
      }
    });
  });

  it("the dynamic resource classes declare the same outputs (OutputPropsOf of the same kind)", () => {
    // Type level: the WebhookEndpoint class's outputs are the kind's output names, which the schema lists.
    expectTypeOf<keyof OutputPropsOf<typeof KINDS.webhookEndpoint.kind>>().toEqualTypeOf<
      "endpointId" | "url" | "events" | "status" | "site"
    >();
    expectTypeOf<InstanceType<typeof WebhookEndpoint>>().toHaveProperty("endpointId");
    expect(Object.keys(schema.resources["billing:index:WebhookEndpoint"].properties).sort()).toEqual(
      ["endpointId", "url", "events", "status", "site"].sort(),
    );
  });

  it("provider configuration: the dynamic providers' billing:* keys; credentials secret, nothing else", () => {
    for (const props of [schema.config.variables, schema.provider.inputProperties]) {
      expect(Object.keys(props).sort()).toEqual(
        [
          "subdomain",
          "environment",
          "connector",
          "baseUrl",
          "apiKey",
          "accessToken",
          "sites",
          "retryBudgetSeconds",
          "migrationSettleSeconds",
          "timeoutMs",
        ].sort(),
      );
      const secret = Object.entries(props)
        .filter(([, p]) => p.secret)
        .map(([k]) => k);
      expect(secret.sort()).toEqual(["accessToken", "apiKey", "sites"]);
    }
  });

  it("is what the plugin serves, at its version, and deterministic", () => {
    const p = new BillingProvider("0.1.0");
    expect(JSON.parse(p.schema)).toEqual(schema);
    expect(p.schema).toBe(new BillingProvider("0.1.0").schema);
    expect(JSON.parse(new BillingProvider().schema).version).toBe(require("../../package.json").version);
  });

  it("sdk-gen/schema.json, checked in, is this schema at package.json's version, as text (else: npm run sdk-gen)", () => {
    const root = path.resolve(__dirname, "../..");
    const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    const now = `${JSON.stringify(
      packageSchema(
        Object.values(KINDS).map((m) => m.kind),
        version,
      ),
      null,
      2,
    )}\n`;
    expect(
      readFileSync(path.join(root, "sdk-gen/schema.json"), "utf8"),
      "sdk-gen/schema.json is stale: run `npm run sdk-gen` and commit sdk-gen/",
    ).toBe(now);
  });
});
