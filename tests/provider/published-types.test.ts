import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { KINDS } from "../../provider";
import type { JsonSchema } from "../../provider/kinds/inputs";
import { declareKind, type Kind } from "../../provider/kinds/kind";
import { classExample, exampleNames, kindTypesFile, moduleOf, withClassExample } from "../../provider/kinds/tsdoc";
import { SDK_INPUT_TYPES_FILE, sdkInputTypesFile } from "../../scripts/lib/sdk-input-types";
import { PUBLISHED_TYPES_OPTIONS, typecheckTypeScript } from "../docs/compile";

/**
 * What a user's editor shows: the package's published types (`dist/`, resolved through its exports map as an
 * installed package is), asked through the TypeScript language service the way an editor's hover asks it.
 */
const root = path.join(__dirname, "../..");
const kinds = Object.values(KINDS).map((m) => m.kind);

/** A program of in-memory files beside package.json, so `pulumi-subscription-billing` resolves to this package's dist/. */
function editor(...texts: string[]) {
  const files = new Map(texts.map((text, i) => [path.join(root, `__hover${i}__.ts`), text]));
  const file = [...files.keys()][0];
  const options = PUBLISHED_TYPES_OPTIONS;
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [...files.keys()],
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) => {
      const content = files.get(name) ?? ts.sys.readFile(name);
      return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (name) => files.has(name) || ts.sys.fileExists(name),
    readFile: (name) => files.get(name) ?? ts.sys.readFile(name),
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const hover = (at: number) => {
    const info = service.getQuickInfoAtPosition(file, at);
    return {
      type: ts.displayPartsToString(info?.displayParts),
      doc: ts.displayPartsToString(info?.documentation),
      tags: (info?.tags ?? []).map((t) => `@${t.name} ${ts.displayPartsToString(t.text)}`),
    };
  };
  const errors = () =>
    [...files.keys()].flatMap((name) =>
      [...service.getSyntacticDiagnostics(name), ...service.getSemanticDiagnostics(name)].map(
        (d) => `${path.basename(name)}:${d.start}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
      ),
    );
  return { hover, errors };
}

/** A program using every input and output of a kind, with the offsets of each name (where an editor hovers). */
function usage(kind: Kind, n: number) {
  const { variable } = exampleNames(kind);
  const v = `${variable}${n}`;
  const inputs = Object.keys(kind.inputs.shape);
  const outputs = Object.keys(kind.outputs.shape);
  let text = `declare const args${n}: import("pulumi-subscription-billing").${kind.type}Args;\nconst ${v} = new ${kind.type}("r${n}", {\n`;
  const at = new Map<string, number>();
  const json = z.toJSONSchema(kind.inputs, { io: "input", unrepresentable: "any" }) as { properties: Record<string, JsonSchema> };
  for (const name of inputs) {
    at.set(`input ${name}`, text.length + 2);
    const nested = json.properties[name].properties as Record<string, JsonSchema> | undefined;
    if (!nested) {
      text += `  ${name}: args${n}.${name},\n`;
      continue;
    }
    // An object input: each of its fields is hovered inside the literal, where the user types it.
    text += `  ${name}: {\n`;
    for (const field of Object.keys(nested)) {
      at.set(`input ${name}.${field}`, text.length + 4);
      text += `    ${field}: undefined as never,\n`;
    }
    text += "  },\n";
  }
  text += "});\n";
  for (const name of outputs) {
    at.set(`output ${name}`, text.length + v.length + 1);
    text += `${v}.${name};\n`;
  }
  at.set("class", text.indexOf(`new ${kind.type}`) + 4);
  return { text, at, inputs, outputs };
}

describe("every input documented where the user types it", () => {
  const usages = kinds.map((k, i) => ({ kind: k, ...usage(k, i) }));
  const prelude = `import { ${kinds.map((k) => k.type).join(", ")} } from "pulumi-subscription-billing";\n`;
  let offset = prelude.length;
  const placed = usages.map((u) => {
    const base = offset;
    offset += u.text.length;
    return { ...u, base };
  });
  const { hover, errors } = editor(prelude + usages.map((u) => u.text).join(""));

  it("the program using every input and output of every kind compiles against dist/ (a stale build fails here)", () => {
    expect(errors()).toEqual([]);
  });

  it.each(placed.map((p) => [p.kind.type, p] as const))(
    "%s: hovering each input shows its description and whether a change replaces it or updates it in place",
    (_type, p) => {
      const missing: string[] = [];
      for (const name of p.inputs) {
        const { doc, type } = hover(p.base + (p.at.get(`input ${name}`) as number));
        expect(type, name).toContain(`${p.kind.type}Args.${name}`);
        const described = String((p.kind.inputs.shape as Record<string, z.ZodType>)[name].description ?? "").trim();
        if (!doc.includes(described) || !/A change (replaces the resource|updates the resource in place)/.test(doc)) missing.push(name);
      }
      for (const [label, offset] of p.at)
        if (label.startsWith("input ") && label.includes(".") && hover(p.base + offset).doc.trim().length < 10) missing.push(label);
      expect(missing).toEqual([]);
      expect(p.inputs.length).toBeGreaterThan(0);
    },
  );

  it.each(placed.map((p) => [p.kind.type, p] as const))("%s: hovering each output of the resource shows its description", (_type, p) => {
    const missing = p.outputs.filter((name) => {
      const { doc, type } = hover(p.base + (p.at.get(`output ${name}`) as number));
      const described = String((p.kind.outputs.shape as Record<string, z.ZodType>)[name].description ?? "").trim();
      return !type.includes(`${p.kind.type}Outputs.${name}: Output`) || !described || !doc.includes(described);
    });
    expect(missing).toEqual([]);
    expect(p.outputs.length).toBeGreaterThan(0);
  });

  it.each(placed.map((p) => [p.kind.type, p] as const))("%s: hovering the class shows its prose and its declared example", (_type, p) => {
    const { doc, tags } = hover(p.base + (p.at.get("class") as number));
    expect(doc.length).toBeGreaterThan(40);
    const example = tags.find((t) => t.startsWith("@example"));
    expect(example).toContain(`new ${p.kind.type}(`);
    for (const value of Object.values(p.kind.example as Record<string, unknown>).filter((x) => typeof x === "string"))
      expect(example).toContain(JSON.stringify(value));
  });

  it("each class's example compiles as a program against dist/", () => {
    const examples = kinds.map((k) => ({
      language: "typescript" as const,
      file: `provider/kinds/${moduleOf(k)}.ts`,
      line: 1,
      name: `${k.type}'s @example`,
      code: `${classExample(k).slice(2, -1).join("\n")}\n`,
    }));
    expect(typecheckTypeScript(examples)).toEqual([]);
  });
});

describe("the generated docs come from the declarations", () => {
  it.each(kinds.map((k) => [k.type, k] as const))(
    "%s: provider/kinds/generated and the class's @example are what `npm run docs` writes now",
    (_type, kind) => {
      const generated = readFileSync(path.join(root, "provider/kinds/generated", `${moduleOf(kind)}.ts`), "utf8");
      expect(generated).toBe(kindTypesFile(kind));
      const source = readFileSync(path.join(root, "provider/kinds", `${moduleOf(kind)}.ts`), "utf8");
      expect(source).toBe(withClassExample(source, kind));
    },
  );

  it("sdk/generated/inputs.ts, the SDK's documented input types, is what `npm run docs` writes now", () => {
    expect(readFileSync(path.join(root, SDK_INPUT_TYPES_FILE), "utf8")).toBe(sdkInputTypesFile());
  });

  const sample = (inputs: z.ZodObject, replaceOn: Kind["replaceOn"] = []) =>
    declareKind({
      key: "sampleThing",
      type: "SampleThing",
      summary: "A kind for the generator's own checks.",
      inputs,
      outputs: z.object({ thingId: z.number().describe("The id.") }),
      replaceOn,
      refresh: false,
      onDelete: "nothing",
      example: {},
    });

  it("a declared field without a description stops the generator, naming it", () => {
    expect(() => kindTypesFile(sample(z.object({ colour: z.string() })))).toThrow(/SampleThing\.colour \(input\) has no description/);
  });

  it("accepted values, the default, the change note and @deprecated come from the field's declaration", () => {
    const text = kindTypesFile(
      sample(
        z.object({
          unit: z.enum(["day", "month"]).default("month").describe("The unit."),
          colour: z.string().optional().describe("Old name of `color`.").meta({ deprecated: true }),
        }),
        ["unit"],
      ),
    );
    expect(text).toContain('Accepted values: `"day"`, `"month"`.');
    expect(text).toContain('@defaultValue `"month"`');
    expect(text).toMatch(/The unit\.\n.*A change replaces the resource\.\n/s);
    expect(text).toMatch(/@deprecated Old name of `color`\.\n\s*\*\/\n\s*readonly colour\?: ArgTypes\["colour"\];/);
    expect(text).toMatch(/A change updates the resource in place\.\n.*readonly colour\?/s);
  });

  it("a one-shot kind's inputs all say a change is a new event", () => {
    const text = kindTypesFile(sample(z.object({ ids: z.array(z.number()).describe("Ids.") }), "all"));
    expect(text).toContain("A change replaces the resource: a SampleThing is one-shot, so a changed input is a new event.");
  });
});
