import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cellCode, code, money, ReviewInputError, readInput, reviewSummary, text, truncate } from "../../review";

const FIXTURES = path.resolve(__dirname, "../fixtures/preview");
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), "utf8");

describe("readInput refuses what cannot be summarized, saying what it found", () => {
  const document = fixture("migration-create.json");
  const stream = fixture("migration-create.events.jsonl");
  it.each([
    ["nothing", "", /preview\.json is empty: expected the JSON that `pulumi preview --json` prints/],
    [
      "the CLI's text display",
      "Previewing update (dev):\n  + pulumi:pulumi:Stack",
      /is not JSON \(it starts with "Previewing update \(dev\):"\)/,
    ],
    ["a document cut off", document.slice(0, 900), /ends before its JSON does .*: the preview's output was cut off/],
    ["an array", "[1, 2]", /is JSON but not an object/],
    [
      "an unrelated object",
      '{"result":"succeeded","summary":{"create":1}}',
      /has none of steps, changeSummary, diagnostics.*`--output json`/,
    ],
    ["another kind", '{"kind":"billing-fleet-plan"}', /has kind "billing-fleet-plan"/],
    ["a newer fleet report", '{"kind":"billing-fleet-report","version":2,"operation":"preview","sites":[]}', /newer billing-fleet/],
    [
      "a fleet site without a name",
      '{"kind":"billing-fleet-report","version":1,"operation":"preview","sites":[{"stack":"a"}]}',
      /sites\[0\]\.name/,
    ],
    ["a step without a urn", '{"steps":[{"op":"create"}]}', /not a preview it can read: steps\[0\]\.urn/],
    ["a step whose op is not text", '{"steps":[{"op":3,"urn":"urn:pulumi:a::b::c::d"}]}', /steps\[0\]\.op/],
    [
      "an event stream with a bad line inside",
      [...stream.split("\n").slice(0, 3), "{not json", ...stream.split("\n").slice(3)].join("\n"),
      /line 4, is not JSON/,
    ],
  ])("%s", (_, input, message) => {
    expect(() => readInput(input, "preview.json")).toThrow(ReviewInputError);
    expect(() => readInput(input, "preview.json")).toThrow(message);
  });

  it("reads nulls and omitted fields as absent (Go's detailedDiff: null, omitempty)", () => {
    const read = readInput(
      JSON.stringify({
        steps: [
          { op: "create", urn: "urn:pulumi:s::p::t::n", oldState: null, newState: { inputs: null }, detailedDiff: null, diffReasons: null },
        ],
        diagnostics: [{ severity: "warning" }, { message: "x" }],
        changeSummary: null,
      }),
    );
    expect(read).toMatchObject({
      kind: "preview",
      source: "document",
      preview: {
        steps: [{ op: "create", urn: "urn:pulumi:s::p::t::n", type: undefined }],
        diagnostics: [
          { message: "", severity: "warning" },
          { message: "x", severity: "info" },
        ],
      },
    });
  });

  it("drops __provider at the door", () => {
    const read = readInput(document);
    expect(JSON.stringify(read)).not.toContain("__provider");
    expect(JSON.stringify(read)).toContain('"preservePeriod":true');
  });

  it("an event stream cut off in its last line is read, and said not to have finished", () => {
    const lines = fixture("migration-create.events.jsonl").trimEnd().split("\n");
    const cut = lines.slice(0, -3).join("\n") + "\n" + lines[lines.length - 3].slice(0, 40);
    const read = readInput(cut);
    expect(read).toMatchObject({ kind: "preview", source: "events", complete: false });
    expect(reviewSummary(read)).toContain(
      "**The preview did not finish**: the event stream ends before the engine's summary, so this review may miss steps.",
    );
  });
});

describe("Markdown helpers", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [-5, "-0.05"],
    [-100, "-1.00"],
    [123456, "1234.56"],
    [-123456, "-1234.56"],
  ])("money(%d) is %s", (cents, shown) => expect(money(cents)).toBe(shown));

  it.each([
    ["a|b", "a\\|b"],
    ["*bold* _x_ [l](u) <b> ~s~ &amp; `c` \\", "\\*bold\\* \\_x\\_ \\[l\\](u) \\<b\\> \\~s\\~ \\&amp; \\`c\\` \\\\"],
    ["two\nlines\r\n  three", "two lines three"],
    ["bell\u0007 and \u001b[31mred\u001b[0m", "bell and [31mred[0m".replace(/\[/g, "\\[")],
  ])("text(%j)", (value, shown) => expect(text(value)).toBe(shown));

  it.each([
    ["pro", "`pro`", "`pro`"],
    ["a`b", "``a`b``", "``a`b``"],
    ["`x`", "`` `x` ``", "`` `x` ``"],
    ["a|b", "`a|b`", "`a\\|b`"],
    ["", '""', '""'],
  ])("code(%j) and cellCode", (value, inline, inCell) => {
    expect(code(value)).toBe(inline);
    expect(cellCode(value)).toBe(inCell);
  });

  it("truncate cuts at a line boundary, says so, and stays within the limit", () => {
    const md = Array.from({ length: 100 }, (_, i) => `line ${i} ${"x".repeat(50)}`).join("\n") + "\n";
    const cut = truncate(md, 1000);
    expect(cut.length).toBeLessThanOrEqual(1000);
    expect(cut).toMatch(/\nline \d+ x+\n\n_… \d+ more characters cut here \(--max-chars 1000\)\._\n$/);
    expect(truncate(md, md.length)).toBe(md);
  });
});
