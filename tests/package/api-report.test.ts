/**
 * The public API is guarded: api/<entry>.api.md, API Extractor's report of each entry point of package.json
 * "exports", is checked in, and this test regenerates every report from the built declarations (check mode, into a
 * temporary folder) and fails with the diff when one differs. A change to what users import is therefore always a
 * reviewed diff of api/; a removed or changed line there breaks users, and CHANGELOG.md says so.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { API_DIR, type ApiReportResult, apiEntries, apiReport } from "../../scripts/api-report";
import { assertBuilt } from "./built";

const HOW_TO_FIX =
  "The exports changed without the API report being regenerated. Run `npm run api` (it builds, then rewrites " +
  "api/*.api.md), review the diff, and commit the reports with the change (a removed or changed line breaks users: " +
  "say so in CHANGELOG.md).";

describe("API report (api/*.api.md)", () => {
  let results: ApiReportResult[];
  beforeAll(() => {
    assertBuilt();
    results = apiReport({ check: true });
  }, 180_000);

  it("has one report per entry point with types, and no report of an entry that is gone", () => {
    const expected = apiEntries().map((e) => `${e.name}.api.md`);
    expect(expected).toContain("index.api.md");
    expect(expected).toContain("provider-runtime.api.md");
    const present = readdirSync(API_DIR).filter((f) => f.endsWith(".api.md"));
    expect(present.sort(), `${HOW_TO_FIX} (It also deletes the report of an entry removed from "exports".)`).toEqual(expected.sort());
  });

  it.each(apiEntries().map((e) => [e.subpath, e.name] as const))('"%s" matches api/%s.api.md', (subpath) => {
    const r = results.find((x) => x.entry.subpath === subpath)!;
    const name = path.relative(path.dirname(API_DIR), r.reportFile);
    if (!r.upToDate) expect.fail(`${name} is stale: the exports of "${subpath}" changed. ${HOW_TO_FIX}\n\n${r.diff}`);
    expect(r.problems, `API Extractor's errors and warnings for "${subpath}"`).toEqual([]);
  });
});
