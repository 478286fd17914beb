import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { KINDS } from "../../provider";
import { BEGIN, END, kindReference, propertiesOf, replaces, withReference } from "../../provider/kinds/docs";
import { declareKind, type Kind } from "../../provider/kinds/kind";

/**
 * The docs reference generator (provider/kinds/docs.ts), run in this process and compared whole: the
 * committed page through withReference (what `npm run docs` does), and sample kinds whose fields reach every
 * branch of the type column, the escaping of table cells and the defaults.
 */
const kinds = Object.values(KINDS).map((m) => m.kind);

const sample = (over: Partial<Kind>): Kind =>
  declareKind({
    key: "sampleThing",
    type: "SampleThing",
    summary: "A kind for the generator's own checks.",
    inputs: z.object({}),
    outputs: z.object({}),
    replaceOn: [],
    refresh: false,
    onDelete: "nothing",
    example: {},
    ...over,
  } as Kind);

const SEVEN = ["a", "b", "c", "d", "e", "f", "g"] as const;
const SIX = ["a", "b", "c", "d", "e", "f"] as const;
const SIX_TEXT = '"a" \\| "b" \\| "c" \\| "d" \\| "e" \\| "f"';

describe("kindReference", () => {
  it("docs/resources.md is withReference(itself, kindReference(every kind)): the page `npm run docs` writes", () => {
    const page = readFileSync(path.join(__dirname, "../../docs/resources.md"), "utf8");
    expect(withReference(page, kindReference(kinds))).toBe(page);
  });

  it("the whole reference of two kinds: the table, then each kind's inputs (type, required, replaces, doc) and outputs", () => {
    const thing = sample({
      summary: "Splits a | b\nover two lines.",
      refresh: true,
      onDelete: "deletes it | or not",
      replaceOn: ["plan", "ids"],
      inputs: z.object({
        plan: z.enum(SEVEN).describe("Seven plans."),
        mode: z.enum(SIX).optional().describe("Six modes."),
        events: z.array(z.enum(SEVEN)).describe("Seven events."),
        flags: z.array(z.enum(SIX)).describe("Six flags."),
        ids: z.array(z.number()).describe("Ids."),
        anything: z.array(z.unknown()).describe("Any values."),
        pair: z.tuple([z.string(), z.number()]).describe("A tuple (its JSON Schema has items: false)."),
        either: z.union([z.string(), z.number()]).describe("A string or a number."),
        maybe: z.string().nullable().describe("A string or null."),
        address: z.object({ line: z.string(), city: z.string().optional() }).describe("An address."),
        extras: z.object({ a: z.string().optional(), b: z.number().optional() }).describe("All optional."),
        count: z.number().int().default(3).describe("How many."),
        blank: z.string().optional(),
        tagged: z
          .string()
          .describe("Metadata of another type's keywords.")
          .meta({ items: { enum: [...SEVEN] }, properties: { q: {} } }),
        text: z.string().describe("Pipes | and\nnewlines."),
      }),
      outputs: z.object({ thingId: z.number().describe("The id."), names: z.array(z.string()).describe("Names | sorted.") }),
    });
    const other = sample({
      type: "OtherThing",
      summary: "A one-shot kind.",
      replaceOn: "all",
      inputs: z.object({ note: z.string().describe("A note.") }),
      outputs: z.object({ at: z.string().nullable().describe("When.") }),
    });
    expect(kindReference([thing, other]).split("\n")).toEqual([
      BEGIN,
      "",
      "| resource | what it does | `pulumi refresh` | `pulumi destroy` |",
      "|---|---|---|---|",
      "| `SampleThing` | Splits a \\| b over two lines. | reads the service: drift shows | deletes it \\| or not |",
      "| `OtherThing` | A one-shot kind. | keeps the recorded state (nothing to read) | nothing |",
      "",
      "#### `SampleThing`",
      "",
      "| input | type | | |",
      "|---|---|---|---|",
      "| `plan` | string (one of 7 keys) | required; a change replaces | Seven plans. |",
      `| \`mode\` | ${SIX_TEXT} | optional | Six modes. |`,
      "| `events` | string[] (each one of 7 keys) | required | Seven events. |",
      `| \`flags\` | (${SIX_TEXT})[] | required | Six flags. |`,
      "| `ids` | number[] | required; a change replaces | Ids. |",
      "| `anything` | any[] | required | Any values. |",
      "| `pair` | any[] | required | A tuple (its JSON Schema has items: false). |",
      "| `either` | string \\| number | required | A string or a number. |",
      "| `maybe` | string \\| null | required | A string or null. |",
      "| `address` | { line, city? } | required | An address. |",
      "| `extras` | { a?, b? } | required | All optional. |",
      "| `count` | integer | optional | How many. Default 3. |",
      "| `blank` | string | optional |  |",
      "| `tagged` | string | required | Metadata of another type's keywords. |",
      "| `text` | string | required | Pipes \\| and newlines. |",
      "",
      "| output | type | |",
      "|---|---|---|",
      "| `thingId` | number | The id. |",
      "| `names` | string[] | Names \\| sorted. |",
      "",
      "#### `OtherThing`",
      "",
      "| input | type | | |",
      "|---|---|---|---|",
      "| `note` | string | required; a change replaces | A note. |",
      "",
      "| output | type | |",
      "|---|---|---|",
      "| `at` | string \\| null | When. |",
      "",
      END,
    ]);
  });

  it("no kinds: the empty table between the markers", () => {
    expect(kindReference([])).toBe(
      [BEGIN, "", "| resource | what it does | `pulumi refresh` | `pulumi destroy` |", "|---|---|---|---|", "", END].join("\n"),
    );
  });
});

// The type column's bracketing of an array of a union, `(a \| b)[]`: every real type is one line, where the anchors of
// its pattern cannot matter. A type that spans lines (a property name with a line break) shows which text is
// bracketed: the whole type or nothing, never a line of it, which would put the bracket inside another member of the
// union.

/** The type cell of the `list` input of a kind whose `list` is an array of `items`, as the reference writes it. */
function typeOfList(items: z.ZodType): string {
  const kind = sample({
    key: "sampleList",
    type: "SampleList",
    summary: "A kind for the type column's checks.",
    inputs: z.object({ list: z.array(items) }),
    example: { list: [] },
  });
  const reference = kindReference([kind]);
  const row = reference.slice(reference.indexOf("| `list` | "));
  return row.slice("| `list` | ".length, row.indexOf(" | required"));
}

const multiLine = z.object({ "a\nb": z.string().optional() });

describe("kindReference: the type of an array of a union", () => {
  it.each([
    ["one line: the whole union is bracketed", z.union([z.number(), z.string()]), "(number \\| string)[]"],
    ["one line, a member itself an array", z.union([z.string(), z.array(z.number())]), "(string \\| number[])[]"],
    ["a line break before the last member: left whole", z.union([multiLine, z.string()]), "{ a\nb? } \\| string[]"],
    [
      "a line break after an array member: left whole",
      z.union([z.string(), z.array(z.number()), multiLine]),
      "string \\| number[] \\| { a\nb? }[]",
    ],
  ])("%s", (_, items, expected) => {
    expect(typeOfList(items)).toBe(expected);
  });
});

describe("propertiesOf", () => {
  it.each<[string, z.ZodObject, "input" | "output", { name: string; schema: object; required: boolean }[]]>([
    [
      "in declaration order, with each one's schema and whether it is required",
      z.object({ b: z.string().describe("B."), a: z.number().optional() }),
      "input",
      [
        { name: "b", schema: { type: "string", description: "B." }, required: true },
        { name: "a", schema: { type: "number" }, required: false },
      ],
    ],
    [
      "a defaulted input is optional",
      z.object({ d: z.number().default(1) }),
      "input",
      [{ name: "d", schema: { type: "number", default: 1 }, required: false }],
    ],
    [
      "a defaulted output is required",
      z.object({ d: z.number().default(1) }),
      "output",
      [{ name: "d", schema: { type: "number", default: 1 }, required: true }],
    ],
    [
      "every property optional (the schema has no required list)",
      z.object({ x: z.string().optional(), y: z.string().optional() }),
      "input",
      [
        { name: "x", schema: { type: "string" }, required: false },
        { name: "y", schema: { type: "string" }, required: false },
      ],
    ],
    ["no properties", z.object({}), "input", []],
  ])("%s", (_case, schema, io, properties) => {
    expect(propertiesOf(schema, io)).toEqual(properties);
  });
});

describe("replaces", () => {
  it.each<[string, Kind["replaceOn"], string, boolean]>([
    ["a listed input", ["a", "b"], "b", true],
    ["an input not listed", ["a"], "b", false],
    ["nothing listed", [], "a", false],
    ["a one-shot kind: any input", "all", "anything", true],
  ])("%s", (_case, replaceOn, name, expected) => {
    expect(replaces(sample({ replaceOn }), name)).toBe(expected);
  });
});

describe("withReference", () => {
  it.each([
    ["between text", `before\n${BEGIN}\nold\n${END}\nafter\n`, "before\nNEW\nafter\n"],
    ["at the very start and end of the page", `${BEGIN}old${END}`, "NEW"],
    ["at the start, text after", `${BEGIN}\nold\n${END}tail`, "NEWtail"],
  ])("replaces the section %s, markers included", (_case, readme, expected) => {
    expect(withReference(readme, "NEW")).toBe(expected);
  });

  it.each([
    ["no markers", "# Readme\n"],
    ["only the end marker", `# Readme\n${END}\n`],
    ["only the begin marker", `# Readme\n${BEGIN}\n`],
    ["the end marker before the begin marker", `${END}\n${BEGIN}\n`],
  ])("%s: stops, naming the markers", (_case, readme) => {
    expect(() => withReference(readme, "NEW")).toThrow(new Error(`README.md has no ${BEGIN} … ${END} section`));
  });
});
