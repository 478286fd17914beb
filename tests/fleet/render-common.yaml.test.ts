import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { COMMON_LABELS, kubeName, shortHash, toYaml, yamlText } from "../../fleet/render";

/**
 * The YAML the renderers print and the names they make (fleet/render.ts), compared whole: which strings
 * are double-quoted so that kubectl's YAML 1.1 reader and a YAML 1.2 reader both read them back as text,
 * the documents' separators, and Kubernetes names with their hashes (issue 24: render.ts's mutants).
 * The hashes are sha256's (`printf %s text | sha256sum`).
 */

describe("yamlText: strings that another reader would not read back as text are double-quoted", () => {
  it("a whole document: plain where every reader agrees, quoted elsewhere (keys too), one line however long", () => {
    const long = "word ".repeat(25).trim();
    const value = {
      plain: "billing",
      url: "https://billing.example",
      yes: "yes", // a flag to YAML 1.1, text to 1.2
      on: "on",
      n: 42, // the key: a flag to YAML 1.1
      octal: "010", // 8 to YAML 1.1, 10 to 1.2
      octal12: "0o17", // 15 to YAML 1.2, text to 1.1
      time: "12:30", // 750 to YAML 1.1
      num: "42",
      nul: "null",
      empty: "",
      padded: " x",
      nbsp: "x\u00a0", // YAML keeps a no-break space, String.prototype.trim drops it
      quote: '"a', // no YAML reader takes this plain (it throws): double-quoted, not single-quoted as yaml would
      padQuote: ' "x', // padded, and yaml alone would single-quote it
      single: "'a",
      apostrophe: "a'",
      multi: "line1\nline2",
      long,
      b: true,
      nested: { list: ["on", "a", 1] },
    };
    const text = yamlText(value);
    expect(text).toBe(
      [
        "plain: billing",
        "url: https://billing.example",
        '"yes": "yes"',
        '"on": "on"',
        '"n": 42',
        'octal: "010"',
        'octal12: "0o17"',
        'time: "12:30"',
        'num: "42"',
        'nul: "null"',
        'empty: ""',
        'padded: " x"',
        'nbsp: "x\u00a0"',
        'quote: "\\"a"',
        'padQuote: " \\"x"',
        `single: "'a"`,
        "apostrophe: a'",
        "multi: |-",
        "  line1",
        "  line2",
        `long: ${long}`,
        "b: true",
        "nested:",
        "  list:",
        '    - "on"',
        "    - a",
        "    - 1",
        "",
      ].join("\n"),
    );
    for (const version of ["1.1", "1.2"] as const) expect(parse(text, { version })).toEqual(value);
  });

  it.each([
    ["", '""'],
    [" x", '" x"'],
    ["x ", '"x "'],
    ["\u00a0x", '"\u00a0x"'],
    ["x\t", '"x\\t"'],
    ['"a', '"\\"a"'],
    [' "x', '" \\"x"'],
    ["*alias", '"*alias"'],
    ["[a", '"[a"'],
    ["a: b", '"a: b"'],
    ["a #b", '"a #b"'],
    ["yes", '"yes"'],
    ["Off", '"Off"'],
    ["0o17", '"0o17"'],
    ["1e3", '"1e3"'],
    ["~", '"~"'],
    ["a b", "a b"],
    ["x\ty", "x\ty"],
    ["billing:apiKey", "billing:apiKey"],
  ])("the value %j is written %s", (text, written) => {
    expect(yamlText({ v: text })).toBe(`v: ${written}\n`);
  });

  it("a string alone is a document too", () => {
    expect(yamlText("on")).toBe('"on"\n');
    expect(yamlText("billing")).toBe("billing\n");
  });
});

describe("toYaml: several manifests as one stream", () => {
  it("each document as yamlText writes it, separated by ---", () => {
    expect(toYaml([{ a: 1 }, { b: "on" }, { c: ["x"] }])).toBe('a: 1\n---\nb: "on"\n---\nc:\n  - x\n');
  });

  it("one document has no separator; none is empty", () => {
    expect(toYaml([{ kind: "Job" }])).toBe("kind: Job\n");
    expect(toYaml([])).toBe("");
  });
});

describe("kubeName: a Kubernetes name for any text", () => {
  it.each([
    ["us-store", 63, "us-store"],
    ["a", 63, "a"],
    ["a".repeat(63), 63, "a".repeat(63)],
    ["abcdefghij", 10, "abcdefghij"],
    ["US-Store", 63, "us-store-e6335cee"],
    ["Ab", 63, "ab-025b5573"],
    ["a_b", 63, "a-b-648fa9b3"],
    ["a__-b", 63, "a-b-0681fb0a"],
    ["_a_", 63, "a-dee5fddd"],
    ["___", 63, "bda25155"],
    ["Billing Store", 20, "billing-sto-1271c58e"],
    ["x".repeat(80), 42, `${"x".repeat(33)}-d929cdee`],
    ["x".repeat(64), 63, `${"x".repeat(54)}-7ce10097`],
    [`${"a".repeat(53)}_bcdef`, 63, `${"a".repeat(53)}-a99f19e2`],
  ] as const)("kubeName(%j, %i) is %j", (text, max, name) => {
    expect(kubeName(text, max)).toBe(name);
  });

  it("takes 63 characters by default", () => {
    expect(kubeName("a".repeat(63))).toBe("a".repeat(63));
    expect(kubeName("x".repeat(64))).toBe(`${"x".repeat(54)}-7ce10097`);
  });
});

describe("shortHash and the common labels", () => {
  it("shortHash is the first 10 hex digits of the text's sha256", () => {
    expect(shortHash("")).toBe("e3b0c44298");
    expect(shortHash("a: 1\n")).toBe("37b128c59f");
  });

  it("every object carries the app.kubernetes.io name and part-of labels", () => {
    expect(COMMON_LABELS).toEqual({
      "app.kubernetes.io/name": "billing-fleet",
      "app.kubernetes.io/part-of": "pulumi-subscription-billing",
    });
  });
});
