import { describe, expect, it } from "vitest";
import { policies } from "../../policy";
import { violations } from "../policy/crossguard";
import { examples } from "./examples";
import { declaredBy, isProgram } from "./programs";

/**
 * Every Pulumi program of the docs (README.md and docs/*.md, TypeScript) passes the package's own policy pack:
 * each resource it declares, judged by every policy of the pack as CrossGuard's server calls it, with the pack's
 * default config and with `production: true`. What the provider's check adds from a site (a migration's
 * previewed charge and subscription state, a pricing change against what a site holds) is not there to judge
 * in a program alone: those policies have nothing to say here, and the preservePeriod, https and production
 * rules judge what the program states. The Go and Python programs (docs/_index.md's) are the TypeScript one's in
 * those languages, through the same kinds, and are not run here.
 */

const programs = examples().filter(isProgram);
const CONFIGS = { default: {}, production: { production: true } } as const;

describe("the docs' programs pass the package's policy pack", () => {
  it("finds the programs: the README's, the catalog's and the Registry overview's among them", () => {
    const pages = new Set(programs.map((p) => p.file));
    for (const page of ["README.md", "docs/catalog.md", "docs/_index.md"]) expect(pages.has(page), page).toBe(true);
  });

  it.each(programs.map((p) => [p.name, p] as const))("%s", async (_, program) => {
    const declared = await declaredBy(program);
    // Every resource the block constructs was seen (a runner that saw none would pass anything).
    const constructed = [...program.code.matchAll(/new (?:\w+\.)?\w+\(\s*"([^"]+)"/g)].map((m) => m[1]);
    expect(declared.map((r) => r.name).sort()).toEqual(constructed.sort());
    const found: string[] = [];
    for (const resource of declared) {
      for (const policy of policies) {
        for (const [name, config] of Object.entries(CONFIGS)) {
          const said = await violations(policy, { type: resource.type, urn: resource.urn, props: resource.inputs }, config);
          found.push(...said.map((m) => `${policy.name} (${name} config): ${m}`));
        }
      }
    }
    expect(found).toEqual([]);
  });
});
