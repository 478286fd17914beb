import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPOSITORY } from "../../plugin/schema";

/** The files that tell an outsider they may use the package, what changed, and how to contribute and report. */
const ROOT = path.join(__dirname, "../..");
const read = (file: string): string => readFileSync(path.join(ROOT, file), "utf8");
const pkg = JSON.parse(read("package.json")) as { version: string; license: string };

describe("LICENSE", () => {
  it("is the Apache License 2.0 as apache.org publishes it (LICENSE-2.0.txt), byte for byte, as package.json declares", () => {
    expect(pkg.license).toBe("Apache-2.0");
    const sha256 = createHash("sha256")
      .update(readFileSync(path.join(ROOT, "LICENSE")))
      .digest("hex");
    expect(sha256).toBe("cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30");
  });
});

describe("CHANGELOG.md (Keep a Changelog 1.1.0)", () => {
  const text = read("CHANGELOG.md");
  const headings = text.split("\n").filter((l) => l.startsWith("## "));

  it("starts with Unreleased, then released versions, newest first, each dated", () => {
    expect(headings[0]).toBe("## [Unreleased]");
    const versions = headings.slice(1).map((h) => {
      const m = /^## \[(\d+)\.(\d+)\.(\d+)\] - \d{4}-\d{2}-\d{2}$/.exec(h);
      expect(m, h).not.toBeNull();
      return m!.slice(1).map(Number);
    });
    expect(versions.length).toBeGreaterThan(0);
    const order = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
    expect([...versions].sort((a, b) => order(b, a))).toEqual(versions);
  });

  it("has a section for package.json's version", () => {
    expect(headings.some((h) => h.startsWith(`## [${pkg.version}] - `))).toBe(true);
  });

  it("links every heading to its comparison on the repository the schema names", () => {
    const names = headings.map((h) => /^## \[([^\]]+)\]/.exec(h)![1]);
    const links = new Map([...text.matchAll(/^\[([^\]]+)\]: (\S+)$/gm)].map((m) => [m[1], m[2]]));
    const released = names.slice(1);
    expect(links.get("Unreleased")).toBe(`${REPOSITORY}/compare/v${released[0]}...HEAD`);
    released.forEach((v, i) => {
      const previous = released[i + 1];
      expect(links.get(v)).toBe(previous ? `${REPOSITORY}/compare/v${previous}...v${v}` : `${REPOSITORY}/releases/tag/v${v}`);
    });
  });
});

describe("CONTRIBUTING.md and SECURITY.md", () => {
  for (const file of ["CONTRIBUTING.md", "SECURITY.md"]) {
    it(`${file}: every file of the repository it names exists`, () => {
      const mentioned = read(file).match(/(?<![\w/.-])(?:tests|scripts|provider|sdk|sdk-gen|docs|\.github|\.ci)\/[\w./<>-]*\w/g) ?? [];
      const named = [...new Set(mentioned)].filter((f) => !f.includes("<"));
      expect(named.length).toBeGreaterThan(0);
      expect(named.filter((f) => !existsSync(path.join(ROOT, f)))).toEqual([]);
    });
  }

  it("SECURITY.md reports through a private advisory on the repository, and names no e-mail address", () => {
    const text = read("SECURITY.md");
    expect(text).toContain(`${REPOSITORY}/security/advisories/new`);
    expect(text).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
  });
});
