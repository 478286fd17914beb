import { describe, expect, it } from "vitest";
import { z } from "zod";
import { kindReference } from "../../provider/kinds/docs";
import { declareKind, type Kind } from "../../provider/kinds/kind";

// The type column's bracketing of an array of a union, `(a \| b)[]`: the mutation run found its regex's
// anchors unchecked (every real type is one line, where an anchor cannot matter). A type that spans lines
// (a property name with a line break) shows which text is bracketed: the whole type or nothing, never a
// line of it, which would put the bracket inside another member of the union.

const kindWith = (items: z.ZodType): Kind =>
  declareKind({
    key: "sampleList",
    type: "SampleList",
    summary: "A kind for the type column's checks.",
    inputs: z.object({ list: z.array(items) }),
    outputs: z.object({}),
    replaceOn: [],
    refresh: false,
    onDelete: "nothing",
    example: { list: [] },
  } as Kind);

/** The type cell of the `list` input, as the reference writes it. */
function typeOfList(items: z.ZodType): string {
  const reference = kindReference([kindWith(items)]);
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
