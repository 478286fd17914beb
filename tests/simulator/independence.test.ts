import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The simulator is an independent reading of the contract: if it imported the
// SDK's (or the providers') code, a wrong assumption there would pass on both
// sides of every test.

const ROOT = path.resolve(__dirname, "../..");
const SIMULATOR = path.join(ROOT, "simulator");
const FORBIDDEN = ["sdk", "provider"].map((d) => path.join(ROOT, d));
const PACKAGE = "pulumi-subscription-billing";

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;

/** Import specifiers of `source` (in `dir`) that reach into sdk/ or provider/, directly or through the package's own name. */
function forbiddenImports(source: string, dir: string): string[] {
  const found: string[] = [];
  for (const [, spec] of source.matchAll(SPECIFIER)) {
    if (spec === PACKAGE || (spec.startsWith(`${PACKAGE}/`) && !spec.startsWith(`${PACKAGE}/simulator`))) found.push(spec);
    if (!spec.startsWith(".")) continue;
    const target = path.resolve(dir, spec);
    if (FORBIDDEN.some((f) => target === f || target.startsWith(f + path.sep))) found.push(spec);
  }
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|mts|cts|js)$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

describe("the simulator stands on its own", () => {
  it("no simulator source imports from sdk/ or provider/", () => {
    const files = sources(SIMULATOR);
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((f) =>
      forbiddenImports(readFileSync(f, "utf8"), path.dirname(f)).map((s) => `${path.relative(ROOT, f)}: ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the scan catches every way of importing them", () => {
    const cases = [
      'import { z } from "../sdk/wire";',
      'import type { X } from "../sdk";',
      "export { y } from '../provider/runtime/index';",
      'const m = require("../sdk/client");',
      'const m = await import("../provider");',
      'import "../sdk/wire";',
      'import { BillingClient } from "pulumi-subscription-billing/sdk";',
      'import * as p from "pulumi-subscription-billing";',
    ];
    for (const c of cases) expect(forbiddenImports(c, SIMULATOR), c).toHaveLength(1);
    for (const ok of [
      'import { z } from "zod";',
      'import { Site } from "./site";',
      'import x from "pulumi-subscription-billing/simulator";',
      'import { sdk } from "./sdk-notes";',
    ]) {
      expect(forbiddenImports(ok, SIMULATOR), ok).toEqual([]);
    }
  });
});
