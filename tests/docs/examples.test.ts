import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildGo, pyrightPython, scratch, typecheckTypeScript } from "./compile";
import { docPages, type Example, examples, fencedBlocks, ROOT } from "./examples";

/**
 * Every example in the docs (README.md and docs/*.md) compiles or type-checks in its language: TypeScript with
 * tsc against this package's published types, Go built against the generated Go SDK, Python type-checked by
 * pyright against the generated Python SDK. Each checker is also shown to catch a wrong type in an example, so a
 * checker that silently checks nothing cannot pass. And the Registry's two pages have the layout it expects.
 */

const all = examples();
const of = (language: Example["language"]) => all.filter((e) => e.language === language);
const tmp = scratch(tmpdir(), "billing-docs-examples-");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The first example containing `from`, with it replaced by `to`: a type error a checker must report. */
function broken(list: readonly Example[], from: string, to: string): Example {
  const e = list.find((x) => x.code.includes(from));
  if (!e) throw new Error(`no example contains ${from}`);
  return { ...e, code: e.code.replace(from, to) };
}

describe("the docs' examples compile", () => {
  it("there are examples in each language, the Registry overview's among them", () => {
    for (const language of ["typescript", "go", "python"] as const) {
      expect(of(language).some((e) => e.file === "docs/_index.md")).toBe(true);
    }
    expect(of("typescript").some((e) => e.file === "README.md")).toBe(true);
  });

  it("TypeScript: each type-checks against the package's published types (dist/)", { timeout: 60_000 }, () => {
    expect(typecheckTypeScript(of("typescript"))).toEqual([]);
    const bad = broken(of("typescript"), "webhooksEnabled: true", 'webhooksEnabled: "yes"');
    expect(typecheckTypeScript([bad]).join("\n")).toMatch(
      /:\d+ \(line \d+ of the block\): Type 'string' is not assignable to type '[^']*Input</,
    );
  });

  it("Go: each builds against the generated Go SDK (sdk-gen/go/billing)", { timeout: 600_000 }, () => {
    expect(buildGo(of("go"), path.join(tmp, "go"))).toEqual([]);
    const bad = buildGo([broken(of("go"), "pulumi.Bool(true)", 'pulumi.String("yes")')], path.join(tmp, "go-bad"));
    expect(bad.join("\n")).toMatch(/docs\/_index\.md:\d+ .*cannot use pulumi\.String\("yes"\)/);
  });

  it("Python: each type-checks (pyright) against the generated Python SDK (sdk-gen/python)", { timeout: 300_000 }, () => {
    expect(pyrightPython(of("python"), path.join(tmp, "python"))).toEqual([]);
    const bad = pyrightPython([broken(of("python"), "webhooks_enabled=True", 'webhooks_enabled="yes"')], path.join(tmp, "python-bad"));
    expect(bad.join("\n")).toMatch(/"Literal\['yes'\]" cannot be assigned to parameter "webhooks_enabled"/);
  });
});

describe("the docs' layout", () => {
  const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
  const frontMatter = (text: string) => /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? "";

  it.each(["docs/_index.md", "docs/installation-configuration.md"])(
    "%s: the Registry's front matter (title, meta_desc, layout: package)",
    (file) => {
      const fm = frontMatter(read(file));
      expect(fm).toMatch(/^title: \S/m);
      expect(fm).toMatch(/^meta_desc: \S/m);
      expect(fm).toMatch(/^layout: package$/m);
    },
  );

  it("docs/_index.md: one example in a language chooser, each language's block in its choosable", () => {
    const text = read("docs/_index.md");
    const chooser = /\{\{< chooser language "typescript,go,python" >\}\}([\s\S]*?)\{\{< \/chooser >\}\}/.exec(text);
    expect(chooser).not.toBeNull();
    for (const language of ["typescript", "go", "python"]) {
      const block = new RegExp(`\\{\\{% choosable language ${language} %\\}\\}([\\s\\S]*?)\\{\\{% /choosable %\\}\\}`).exec(chooser![1]);
      expect(block, language).not.toBeNull();
      expect(fencedBlocks(block![1]).map((b) => b.info)).toEqual([language]);
    }
  });

  it("docs/installation-configuration.md: every config key of the plugin's schema, with whether it is secret", () => {
    const schema = JSON.parse(read("sdk-gen/schema.json")) as { config: { variables: Record<string, { type: string; secret?: boolean }> } };
    const rows = read("docs/installation-configuration.md")
      .split("\n")
      .filter((l) => l.startsWith("| `billing:"));
    const documented = rows.map((r) => r.split("|").map((c) => c.trim()));
    expect(documented.map((cells) => cells[1]).sort()).toEqual(
      Object.keys(schema.config.variables)
        .map((k) => `\`billing:${k}\``)
        .sort(),
    );
    for (const [key, v] of Object.entries(schema.config.variables)) {
      const cells = documented.find((c) => c[1] === `\`billing:${key}\``)!;
      expect([cells[2], cells[3]], key).toEqual([v.type, v.secret ? "yes" : "no"]);
    }
  });

  it("the README links every page under docs/, and every relative link of the docs resolves", () => {
    const readme = read("README.md");
    for (const page of docPages().filter((p) => p !== "README.md")) expect(readme, page).toContain(`](${page}`);
    const missing = docPages().flatMap((page) =>
      [...read(page).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1])
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => {
          try {
            readFileSync(path.join(ROOT, path.dirname(page), target));
            return false;
          } catch (err) {
            return (err as NodeJS.ErrnoException).code !== "EISDIR";
          }
        })
        .map((target) => `${page} → ${target}`),
    );
    expect(missing).toEqual([]);
  });
});
