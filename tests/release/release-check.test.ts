import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { changelogProblems, releaseVersionProblems } from "../../scripts/release-check";

/**
 * The release workflow's first job: a tag, package.json and the provider schema naming different
 * versions must stop the release before anything is published.
 */
const ROOT = path.join(__dirname, "../..");
const TS_NODE = path.join(ROOT, "node_modules/.bin/ts-node");
const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

describe("releaseVersionProblems", () => {
  it("agrees when the tag is v<version> and both files say <version> (also as refs/tags/…, and with a prerelease)", () => {
    expect(releaseVersionProblems("v0.2.0", { version: "0.2.0" }, { version: "0.2.0" })).toEqual([]);
    expect(releaseVersionProblems("refs/tags/v0.2.0", { version: "0.2.0" }, { version: "0.2.0" })).toEqual([]);
    expect(releaseVersionProblems("v1.0.0-rc.1", { version: "1.0.0-rc.1" }, { version: "1.0.0-rc.1" })).toEqual([]);
  });

  it("names package.json when it alone differs from the tag, and says what to do", () => {
    const problems = releaseVersionProblems("v0.2.0", { version: "0.1.0" }, { version: "0.2.0" });
    expect(problems).toEqual(["package.json says 0.1.0 but the tag is v0.2.0: set the version to 0.2.0, or tag v0.1.0"]);
  });

  it("names the schema when it alone differs from the tag", () => {
    const problems = releaseVersionProblems("v0.2.0", { version: "0.2.0" }, { version: "0.1.0" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^sdk-gen\/schema\.json says 0\.1\.0 but the tag is v0\.2\.0/);
  });

  it("names both files when the tag is ahead of the two", () => {
    const problems = releaseVersionProblems("v0.3.0", { version: "0.2.0" }, { version: "0.2.0" });
    expect(problems.map((p) => p.split(" ")[0])).toEqual(["package.json", "sdk-gen/schema.json"]);
  });

  it("refuses a tag that is not v<semver>, and still compares the two files", () => {
    expect(releaseVersionProblems("0.2.0", { version: "0.2.0" }, { version: "0.2.0" })).toEqual([
      'tag "0.2.0" does not start with "v" (release tags are v<version>, e.g. v0.1.0)',
    ]);
    expect(releaseVersionProblems("v0.2", { version: "0.2.0" }, { version: "0.2.0" })[0]).toMatch(/not v followed by a SemVer/);
    expect(releaseVersionProblems("v01.2.3", { version: "0.2.0" }, { version: "0.2.0" })[0]).toMatch(/not v followed by a SemVer/);
    expect(releaseVersionProblems("", { version: "0.2.0" }, { version: "0.3.0" })).toEqual([
      'tag "" does not start with "v" (release tags are v<version>, e.g. v0.1.0)',
      "package.json says 0.2.0 but sdk-gen/schema.json says 0.3.0",
    ]);
  });

  it("reports a missing or malformed version instead of throwing", () => {
    expect(releaseVersionProblems("v0.2.0", {}, null)).toEqual(['package.json has no "version"', 'sdk-gen/schema.json has no "version"']);
    expect(releaseVersionProblems("v0.2.0", { version: 2 }, { version: "0.2" })).toEqual([
      'package.json has no "version"',
      'sdk-gen/schema.json version "0.2" is not a SemVer version',
    ]);
  });
});

describe("changelogProblems", () => {
  const changelog = "# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2026-12-01\n\n- a\n\n## [0.1.0] - 2026-11-26\n";
  it("accepts a version with a dated section", () => {
    expect(changelogProblems("0.2.0", changelog)).toEqual([]);
    expect(changelogProblems("0.1.0", changelog.replace(/\n/g, "\r\n"))).toEqual([]);
  });
  it("refuses a version whose entries are still under Unreleased, or whose section has no date", () => {
    expect(changelogProblems("0.3.0", changelog)).toEqual([
      'CHANGELOG.md has no "## [0.3.0] - YYYY-MM-DD" section: move the Unreleased entries under it before tagging',
    ]);
    expect(changelogProblems("0.2.0", changelog.replace("[0.2.0] - 2026-12-01", "[0.2.0]"))).toHaveLength(1);
    expect(changelogProblems("0.1.0", "## [0.1.0.1] - 2026-11-26\n")).toHaveLength(1);
  });
});

describe("scripts/release-check.ts (the workflow's command)", () => {
  it("passes for this checkout's tag: package.json and sdk-gen/schema.json agree, and CHANGELOG.md has the version's section", () => {
    const out = execFileSync(TS_NODE, ["--transpile-only", "scripts/release-check.ts", `v${version}`], { cwd: ROOT, encoding: "utf8" });
    expect(out).toContain("agree");
  });

  it("exits 1 listing the problems for another tag", () => {
    const run = spawnSync(TS_NODE, ["--transpile-only", "scripts/release-check.ts", "v99.0.0"], { cwd: ROOT, encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`release-check: package.json says ${version} but the tag is v99.0.0`);
    expect(run.stderr).toContain(`release-check: sdk-gen/schema.json says ${version} but the tag is v99.0.0`);
  });
});
