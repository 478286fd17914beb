import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { packageSchema } from "../../plugin/schema";
import { declareKind } from "../../provider/kinds/kind";

// How the package schema spells each JSON Schema shape, on kinds made for it (the real kinds have no free
// map, no object default, no output that is a union without null, no all-optional nested object):
// each property's type, default and description, the named types, the required lists.

const ANY = { $ref: "pulumi.json#/Any" };

const sample = declareKind({
  key: "sample",
  type: "Sample",
  summary: "A sample.",
  inputs: z.object({
    name: z.string().describe("The name."),
    count: z.number().default(5).describe("How many."),
    enabled: z.boolean().default(false),
    tags: z.array(z.string()).default([]),
    limits: z.object({ soft: z.number().optional(), hard: z.number().optional() }).optional(),
    labels: z.record(z.string(), z.unknown()).optional(),
    extra: z.unknown().optional(),
  }),
  outputs: z.object({
    name: z.string(),
    either: z.union([z.string(), z.array(z.string())]),
    choice: z.union([z.string(), z.array(z.string())]).nullable(),
    note: z.string().nullable(),
    hint: z.string().optional(),
  }),
  replaceOn: ["name"],
  refresh: false,
  onDelete: "nothing",
  example: { name: "x" },
});

/** A kind whose inputs and outputs require nothing: the JSON Schemas carry no `required` at all. */
const bare = declareKind({
  key: "bare",
  type: "Bare",
  summary: "Nothing required.",
  inputs: z.object({ label: z.string().optional() }),
  outputs: z.object({ label: z.string().optional() }),
  replaceOn: [],
  refresh: true,
  onDelete: "nothing",
  example: {},
});

type Schema = {
  resources: Record<string, unknown>;
  types: Record<string, unknown>;
};
// Built in each test, not at load: Stryker switches a mutant on only once tests start, so a schema built
// while the file loads would be the unmutated one under every mutant.
let schema: Schema;
beforeEach(() => {
  schema = packageSchema([sample, bare], "1.2.3") as Schema;
});

describe("the package schema of made-up kinds", () => {
  it("inputs: scalar defaults kept, object defaults left out, a free map as a map of Any, unknown as Any", () => {
    expect(schema.resources["billing:index:Sample"]).toStrictEqual({
      description: "A sample.\n\n`pulumi refresh`: keeps the recorded state. Delete: nothing.",
      inputProperties: {
        name: { type: "string", description: "The name.", willReplaceOnChanges: true },
        count: { type: "number", description: "How many.", default: 5 },
        enabled: { type: "boolean", default: false },
        tags: { type: "array", items: { type: "string" } },
        limits: { $ref: "#/types/billing:index:SampleLimits" },
        labels: { type: "object", additionalProperties: ANY },
        extra: ANY,
      },
      requiredInputs: ["name"],
      properties: {
        name: { type: "string" },
        either: { oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
        choice: { oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
        note: { type: "string" },
        hint: { type: "string" },
      },
      // A union without a null branch is required; a nullable one (anyOf with null, or a type list with null) is not.
      required: ["name", "either"],
    });
  });

  it("a nested object whose fields are all optional is a type with no required list", () => {
    expect(schema.types["billing:index:SampleLimits"]).toStrictEqual({
      type: "object",
      properties: { soft: { type: "number" }, hard: { type: "number" } },
    });
  });

  it("a kind that requires nothing has empty required lists", () => {
    expect(schema.resources["billing:index:Bare"]).toStrictEqual({
      description: "Nothing required.\n\n`pulumi refresh`: reads the service, so drift shows. Delete: nothing.",
      inputProperties: { label: { type: "string" } },
      requiredInputs: [],
      properties: { label: { type: "string" } },
      required: [],
    });
  });

  it("a union of two object shapes: each branch is a type of its own, with its own fields", () => {
    const union = declareKind({
      key: "union",
      type: "Union",
      summary: "A union of objects.",
      inputs: z.object({ target: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]) }),
      outputs: z.object({}),
      replaceOn: [],
      refresh: true,
      onDelete: "nothing",
      example: { target: { a: "x" } },
    });
    const s = packageSchema([union], "1.2.3") as {
      resources: Record<string, { inputProperties: unknown }>;
      types: Record<string, unknown>;
    };
    expect(s.resources["billing:index:Union"].inputProperties).toStrictEqual({
      target: { oneOf: [{ $ref: "#/types/billing:index:UnionTargetOption1" }, { $ref: "#/types/billing:index:UnionTargetOption2" }] },
    });
    expect(s.types).toStrictEqual({
      "billing:index:UnionTargetOption1": { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      "billing:index:UnionTargetOption2": { type: "object", properties: { b: { type: "number" } }, required: ["b"] },
    });
  });
});
