import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { KINDS } from "../../provider";
import { type Property, propertiesOf } from "../../provider/kinds/docs";
import { declareKind, type Kind } from "../../provider/kinds/kind";
import {
  classExample,
  comment,
  documentedInterface,
  exampleNames,
  fieldDoc,
  kindTypesFile,
  moduleOf,
  propertyDoc,
  withClassExample,
} from "../../provider/kinds/tsdoc";
import { SDK_INPUT_TYPES_FILE, sdkInputTypesFile } from "../../scripts/lib/sdk-input-types";

/**
 * The TSDoc generators (provider/kinds/tsdoc.ts), run in this process: tests/provider/published-types.test.ts
 * checks the same staleness, but it also type-checks dist/ and so stays out of the mutation run
 * (mutation/vitest.config.mts). Each generator's output is compared whole, so a changed word or line fails.
 */
const root = path.join(__dirname, "../..");
const kinds = Object.values(KINDS).map((m) => m.kind);

/** A kind for the generators' own cases: only what a case sets differs from a plain one. */
const sample = (over: Partial<Kind> = {}): Kind =>
  declareKind({
    key: "sampleThing",
    type: "SampleThing",
    summary: "A kind for the generator's own checks.",
    inputs: z.object({ colour: z.string().describe("The colour.") }),
    outputs: z.object({ thingId: z.number().describe("The id.") }),
    replaceOn: [],
    refresh: false,
    onDelete: "nothing",
    example: {},
    ...over,
  } as Kind);

/** The properties of a one-field object schema, as the generators read them. */
const only = (field: z.ZodType, io: "input" | "output" = "input"): Property => propertiesOf(z.object({ field }), io)[0] as Property;

describe("the committed generated files are what the generators write now (in-process staleness)", () => {
  it.each(kinds.map((k) => [k.type, k] as const))("%s: provider/kinds/generated/<module>.ts is kindTypesFile(kind)", (_type, kind) => {
    const generated = readFileSync(path.join(root, "provider/kinds/generated", `${moduleOf(kind)}.ts`), "utf8");
    expect(generated).toBe(kindTypesFile(kind));
  });

  it.each(kinds.map((k) => [k.type, k] as const))("%s: the class's doc comment already ends in its generated @example", (_type, kind) => {
    const source = readFileSync(path.join(root, "provider/kinds", `${moduleOf(kind)}.ts`), "utf8");
    expect(withClassExample(source, kind)).toBe(source);
  });

  it("sdk/generated/inputs.ts is sdkInputTypesFile() (documentedInterface and fieldDoc over the SDK's schemas)", () => {
    expect(readFileSync(path.join(root, SDK_INPUT_TYPES_FILE), "utf8")).toBe(sdkInputTypesFile());
  });
});

describe("names", () => {
  it.each([
    ["webhookEndpoint", "webhook-endpoint"],
    ["componentPricePoint", "component-price-point"],
    ["coupon", "coupon"],
  ])("moduleOf: key %s is the module %s, and the example's variable and resource names follow", (key, module) => {
    const kind = sample({ key });
    expect(moduleOf(kind)).toBe(module);
    expect(exampleNames(kind)).toEqual({ variable: key, resource: module });
  });
});

describe("comment", () => {
  it.each<[string, string[], string, string[]]>([
    ["one paragraph", ["One."], "", ["/**", " * One.", " */"]],
    [
      "paragraphs apart by a blank line, lines split, at an indent",
      ["First.", "Second\nline."],
      "  ",
      ["  /**", "   * First.", "   *", "   * Second", "   * line.", "   */"],
    ],
    ["a blank line inside a paragraph stays a bare star", ["a\n\nb"], "", ["/**", " * a", " *", " * b", " */"]],
    [
      "every */ in the text is escaped, so it cannot end the comment",
      ["Ends */ here */ twice."],
      "",
      ["/**", " * Ends *\\/ here *\\/ twice.", " */"],
    ],
    ["no paragraphs", [], "    ", ["    /**", "     */"]],
  ])("%s", (_case, paragraphs, indent, lines) => {
    expect(comment(paragraphs, indent)).toEqual(lines);
  });
});

describe("documentedInterface", () => {
  const property = (name: string, required: boolean): Property => ({ name, schema: { type: "string" }, required });

  it("each property under its docs, quoted unless it is an identifier, optional unless required", () => {
    const names = ["plain", "_under9", "$dollar", "a", "with-dash", "-lead", "trail-", "1st"];
    const lines = documentedInterface(
      "Thing",
      ["The thing.", "Second."],
      names.map((n, i) => property(n, i % 2 === 0)),
      "T",
      (p) => [`About ${p.name}.`],
    );
    expect(lines).toEqual([
      "/**",
      " * The thing.",
      " *",
      " * Second.",
      " */",
      "export interface Thing {",
      ...[
        ["plain", "plain", ""],
        ["_under9", "_under9", "?"],
        ["$dollar", "$dollar", ""],
        ["a", "a", "?"],
        ["with-dash", '"with-dash"', ""],
        ["-lead", '"-lead"', "?"],
        ["trail-", '"trail-"', ""],
        ["1st", '"1st"', "?"],
      ].flatMap(([name, key, optional]) => [
        "  /**",
        `   * About ${name}.`,
        "   */",
        `  readonly ${key}${optional}: T[${JSON.stringify(name)}];`,
      ]),
      "}",
    ]);
  });

  it("`optional` decides the question marks when given (the kinds' outputs are never optional)", () => {
    const lines = documentedInterface(
      "Out",
      ["Outputs."],
      [property("a", false), property("b", true)],
      "O",
      () => ["Doc."],
      () => false,
    );
    expect(lines.filter((l) => l.includes("readonly"))).toEqual(['  readonly a: O["a"];', '  readonly b: O["b"];']);
  });

  it("no properties: an empty interface under its doc", () => {
    expect(documentedInterface("Empty", ["Nothing."], [], "E", () => [])).toEqual([
      "/**",
      " * Nothing.",
      " */",
      "export interface Empty {",
      "}",
    ]);
  });
});

describe("fieldDoc: the paragraphs and tags of one property", () => {
  it.each<[string, z.ZodType, "input" | "output", string | undefined, string[]]>([
    ["the description, trimmed", z.string().describe("  Padded.\n"), "input", undefined, ["Padded."]],
    [
      "an enum input lists its values",
      z.enum(["day", "month"]).describe("The unit."),
      "input",
      undefined,
      ["The unit.", 'Accepted values: `"day"`, `"month"`.'],
    ],
    ["an output never lists accepted values", z.enum(["day", "month"]).describe("The unit."), "output", undefined, ["The unit."]],
    [
      "a list of enum items lists the items' values",
      z.array(z.enum(["a", "b"])).describe("Tags."),
      "input",
      undefined,
      ["Tags.", 'Accepted values: `"a"`, `"b"`.'],
    ],
    ["a list of free items lists nothing", z.array(z.string()).describe("Names."), "input", undefined, ["Names."]],
    [
      "items in a non-list's metadata are not its accepted values",
      z
        .string()
        .describe("A string.")
        .meta({ items: { enum: ["x"] } }),
      "input",
      undefined,
      ["A string."],
    ],
    [
      "a nullable enum: its values, not the null branch",
      z.enum(["x", "y"]).nullable().describe("Maybe."),
      "input",
      undefined,
      ["Maybe.", 'Accepted values: `"x"`, `"y"`.'],
    ],
    [
      "a union of enums: every branch's values",
      z.union([z.enum(["a"]), z.enum(["b", "c"])]).describe("Either."),
      "input",
      undefined,
      ["Either.", 'Accepted values: `"a"`, `"b"`, `"c"`.'],
    ],
    ["a union without enums lists nothing", z.union([z.string(), z.number()]).describe("Free."), "input", undefined, ["Free."]],
    [
      "the change note after the description",
      z.string().describe("Plain."),
      "input",
      "A change replaces the resource.",
      ["Plain.", "A change replaces the resource."],
    ],
    ["a default as @defaultValue", z.number().default(30).describe("Days."), "input", undefined, ["Days.", "@defaultValue `30`"]],
    [
      "deprecated: the description again as @deprecated",
      z.string().describe("Old.").meta({ deprecated: true }),
      "input",
      undefined,
      ["Old.", "@deprecated Old."],
    ],
    ["deprecated: false is no tag", z.string().describe("Current.").meta({ deprecated: false }), "input", undefined, ["Current."]],
    [
      "all of them, in this order",
      z.enum(["s", "m"]).default("m").describe("Size.").meta({ deprecated: true }),
      "input",
      "A change updates the resource in place.",
      ["Size.", 'Accepted values: `"s"`, `"m"`.', "A change updates the resource in place.", '@defaultValue `"m"`', "@deprecated Size."],
    ],
  ])("%s", (_case, field, io, change, doc) => {
    expect(fieldDoc("Owner", only(field, io), io, change)).toEqual(doc);
  });

  it.each<[string, z.ZodType, "input" | "output"]>([
    ["no description", z.string(), "input"],
    ["a blank description", z.string().describe("   "), "output"],
  ])("%s stops the generator, naming the field and what to do", (_case, field, io) => {
    expect(() => fieldDoc("Owner", only(field, io), io)).toThrow(
      new Error(`Owner.field (${io}) has no description: give it one with .describe() in its declaration`),
    );
  });
});

describe("propertyDoc: a kind's change note on inputs only", () => {
  const inputs = z.object({ unit: z.string().describe("The unit."), label: z.string().describe("The label.") });

  it("a listed input replaces, another updates in place, an output says nothing about changes", () => {
    const kind = sample({ inputs, replaceOn: ["unit"] });
    const [unit, label] = propertiesOf(inputs, "input") as [Property, Property];
    expect(propertyDoc(kind, unit, "input")).toEqual(["The unit.", "A change replaces the resource."]);
    expect(propertyDoc(kind, label, "input")).toEqual(["The label.", "A change updates the resource in place."]);
    expect(propertyDoc(kind, propertiesOf(kind.outputs, "output")[0] as Property, "output")).toEqual(["The id."]);
  });

  it("every input of a one-shot kind is a new event", () => {
    const kind = sample({ inputs, replaceOn: "all" });
    expect(propertiesOf(inputs, "input").map((p) => propertyDoc(kind, p, "input")[1])).toEqual([
      "A change replaces the resource: a SampleThing is one-shot, so a changed input is a new event.",
      "A change replaces the resource: a SampleThing is one-shot, so a changed input is a new event.",
    ]);
  });
});

describe("kindTypesFile", () => {
  it("a kind's whole generated file: header, imports in biome's order, the two interfaces, the proof", () => {
    const kind = sample({
      key: "bigThing",
      type: "BigThing",
      inputs: z.object({ size: z.number().describe("The size."), note: z.string().optional().describe("A note.") }),
      replaceOn: ["size"],
    });
    expect(kindTypesFile(kind).split("\n")).toEqual([
      "// Generated by `npm run docs` from provider/kinds/big-thing.ts: edit the declaration there, not this file.",
      'import type { ArgTypes, bigThing } from "../big-thing";',
      'import type { Assert, OutputPropsOf, Same } from "../kind";',
      "",
      'type Outputs = OutputPropsOf<(typeof bigThing)["kind"]>;',
      "",
      "/**",
      " * The inputs of {@link BigThing}.",
      " *",
      " * A kind for the generator's own checks.",
      " */",
      "export interface BigThingArgs {",
      "  /**",
      "   * The size.",
      "   *",
      "   * A change replaces the resource.",
      "   */",
      '  readonly size: ArgTypes["size"];',
      "  /**",
      "   * A note.",
      "   *",
      "   * A change updates the resource in place.",
      "   */",
      '  readonly note?: ArgTypes["note"];',
      "}",
      "",
      "/**",
      " * The outputs of {@link BigThing}, as the service reports them after each create, update and refresh.",
      " */",
      "export interface BigThingOutputs {",
      "  /**",
      "   * The id.",
      "   */",
      '  readonly thingId: Outputs["thingId"];',
      "}",
      "",
      "/** Fails to compile when these interfaces and the declaration's types differ (run `npm run docs`). */",
      "export type Proof = [Assert<Same<BigThingArgs, ArgTypes>>, Assert<Same<BigThingOutputs, Outputs>>];",
      "",
    ]);
  });

  it("an optional output is still a property every resource has (no question mark)", () => {
    const kind = sample({ outputs: z.object({ maybe: z.string().optional().describe("Perhaps.") }) });
    expect(kindTypesFile(kind)).toContain('\n  readonly maybe: Outputs["maybe"];\n');
  });
});

const EXAMPLE = {
  name: "Gold",
  amount: 12,
  active: true,
  note: null,
  tiers: [{ from: 1, "up-to": 10 }],
  tags: [],
  "x-key": { nested: ["a", 2] },
};
const EXAMPLE_LINES = [
  "@example",
  "```ts",
  'import { SampleThing } from "pulumi-subscription-billing";',
  "",
  'const sampleThing = new SampleThing("sample-thing", {',
  '  name: "Gold",',
  "  amount: 12,",
  "  active: true,",
  "  note: null,",
  '  tiers: [{ from: 1, "up-to": 10 }],',
  "  tags: [],",
  '  "x-key": { nested: ["a", 2] },',
  "});",
  "```",
];

describe("classExample", () => {
  it("the declared example as a program: each value as TypeScript source on one line", () => {
    expect(classExample(sample({ example: EXAMPLE }))).toEqual(EXAMPLE_LINES);
  });
});

describe("withClassExample", () => {
  const kind = () => sample({ example: { name: "Gold" } });
  const example = [
    " * @example",
    " * ```ts",
    ' * import { SampleThing } from "pulumi-subscription-billing";',
    " *",
    ' * const sampleThing = new SampleThing("sample-thing", {',
    ' *   name: "Gold",',
    " * });",
    " * ```",
    " */",
  ];

  it.each<[string, string, string]>([
    [
      "the prose stays, its paragraphs too; an old @example is replaced",
      [
        "const before = 1;",
        "",
        "/**",
        " * Does a thing.",
        " *",
        " *   Indented, with a * inside.",
        " * @example",
        " * old();",
        " */",
        "export class SampleThing extends Base {}",
        "",
      ].join("\n"),
      [
        "const before = 1;",
        "",
        "/**",
        " * Does a thing.",
        " *",
        " *   Indented, with a * inside.",
        " *",
        ...example,
        "export class SampleThing extends Base {}",
        "",
      ].join("\n"),
    ],
    [
      "a comment at the top of the file, text on its first line, stars at any indent",
      ["/** Uses a * b.", "*flush left", "    * deeper", "*/", "export class SampleThing extends Base {}"].join("\n"),
      ["/**", " * Uses a * b.", " * flush left", " * deeper", " *", ...example, "export class SampleThing extends Base {}"].join("\n"),
    ],
  ])("%s", (_case, source, expected) => {
    expect(withClassExample(source, kind())).toBe(expected);
    expect(withClassExample(expected, kind())).toBe(expected);
  });

  it.each([
    ["no class", "/** Doc. */\nexport const x = 1;\n"],
    ["a class without a comment", "const a = 1;\nexport class SampleThing extends Base {}\n"],
    ["code between the comment and the class", "/** Doc. */\nconst a = 1;\nexport class SampleThing extends Base {}\n"],
    ["a comment end with no start", "const a = 1; // */\nexport class SampleThing extends Base {}\n"],
    ["another class's name that starts the same", "/** Doc. */\nexport class SampleThingy extends Base {}\n"],
  ])("%s: stops, naming the module and the class", (_case, source) => {
    expect(() => withClassExample(source, kind())).toThrow(
      new Error("provider/kinds/sample-thing.ts: no doc comment right above `export class SampleThing extends`"),
    );
  });
});
