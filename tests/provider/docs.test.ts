import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { KINDS } from "../../provider";
import { BEGIN, END, kindReference } from "../../provider/kinds/docs";

const kinds = Object.values(KINDS).map((m) => m.kind);
const REFERENCE_PAGE = "docs/resources.md";
const page = readFileSync(path.join(__dirname, "../..", REFERENCE_PAGE), "utf8");

describe("the docs come from the kind declarations", () => {
  it(`${REFERENCE_PAGE}'s reference is what \`npm run docs\` generates now (run it after changing a kind)`, () => {
    expect(page).toContain(BEGIN);
    const section = page.slice(page.indexOf(BEGIN), page.indexOf(END) + END.length);
    expect(section).toBe(kindReference(kinds));
  });

  it.each(kinds.map((k) => [k.type, k] as const))("%s: a summary, and a description on every input and output", (_type, kind) => {
    expect(kind.summary.length).toBeGreaterThan(20);
    for (const schema of [kind.inputs, kind.outputs]) {
      const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
        properties: Record<string, { description?: string }>;
      };
      const undocumented = Object.entries(json.properties)
        .filter(([, p]) => !p.description)
        .map(([name]) => name);
      expect(undocumented).toEqual([]);
    }
  });

  it.each(kinds.map((k) => [k.type, k] as const))(
    "%s: its example passes its own input schema, and the replaceOn names are inputs",
    (_type, kind) => {
      expect(kind.inputs.safeParse(kind.example).success).toBe(true);
      const inputs = Object.keys(kind.inputs.shape);
      if (kind.replaceOn !== "all") expect(inputs).toEqual(expect.arrayContaining([...kind.replaceOn]));
    },
  );

  it("each kind sits in the registry under the key its provider stores", () => {
    expect(Object.entries(KINDS).map(([key, m]) => [key, m.kind.key])).toEqual(kinds.map((k) => [k.key, k.key]));
    expect(new Set(kinds.map((k) => k.type)).size).toBe(kinds.length);
  });
});
