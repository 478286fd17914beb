/**
 * Before anything is published, the release tag, package.json's version and the provider schema's
 * version (sdk-gen/schema.json, which the generated SDKs and the plugin report) must be one version:
 * a tag v0.2.0 on a tree still saying 0.1.0 would publish an npm package and plugin assets that
 * disagree with their release's name, and `pulumi plugin install` would look for files that are not there.
 *
 * The CLI also wants CHANGELOG.md to have that version's section, which becomes the release's notes.
 *
 * Usage: ts-node --transpile-only scripts/release-check.ts [tag]   (default: $GITHUB_REF_NAME)
 * Exits 0 when they agree, 1 listing every problem on stderr.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

/** SemVer 2.0.0 (semver.org's own regular expression), without a leading v. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

function versionOf(doc: unknown): unknown {
  return doc !== null && typeof doc === "object" ? (doc as { version?: unknown }).version : undefined;
}

/**
 * Every way the tag (`v1.2.3`, or the full `refs/tags/v1.2.3`), package.json and the schema disagree
 * about the version being released; empty when they agree.
 */
export function releaseVersionProblems(tag: string, packageJson: unknown, schema: unknown): string[] {
  const problems: string[] = [];
  const name = tag.replace(/^refs\/tags\//, "");
  let tagVersion: string | undefined;
  if (!name.startsWith("v")) problems.push(`tag "${tag}" does not start with "v" (release tags are v<version>, e.g. v0.1.0)`);
  else if (!SEMVER.test(name.slice(1))) problems.push(`tag "${tag}" is not v followed by a SemVer version (e.g. v0.1.0)`);
  else tagVersion = name.slice(1);

  const sources: Array<[string, unknown]> = [
    ["package.json", versionOf(packageJson)],
    ["sdk-gen/schema.json", versionOf(schema)],
  ];
  for (const [file, version] of sources) {
    if (typeof version !== "string" || version === "") problems.push(`${file} has no "version"`);
    else if (!SEMVER.test(version)) problems.push(`${file} version "${version}" is not a SemVer version`);
    else if (tagVersion !== undefined && version !== tagVersion)
      problems.push(`${file} says ${version} but the tag is ${name}: set the version to ${tagVersion}, or tag v${version}`);
  }
  const [pkgVersion, schemaVersion] = sources.map(([, v]) => v);
  if (typeof pkgVersion === "string" && typeof schemaVersion === "string" && pkgVersion !== schemaVersion && tagVersion === undefined)
    problems.push(`package.json says ${pkgVersion} but sdk-gen/schema.json says ${schemaVersion}`);
  return problems;
}

/**
 * The release notes are the version's section of CHANGELOG.md (release.yml copies it into the GitHub
 * release): a release without one would publish empty notes.
 */
export function changelogProblems(version: string, changelog: string): string[] {
  const prefix = `## [${version}] - `;
  const dated = (line: string) => line.startsWith(prefix) && /^\d{4}-\d{2}-\d{2}$/.test(line.slice(prefix.length).trim());
  return changelog.split(/\r?\n/).some(dated)
    ? []
    : [`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" section: move the Unreleased entries under it before tagging`];
}

if (require.main === module) {
  const root = path.resolve(__dirname, "..");
  const tag = process.argv[2] ?? process.env.GITHUB_REF_NAME ?? "";
  const read = (file: string): unknown => JSON.parse(readFileSync(path.join(root, file), "utf8"));
  const packageJson = read("package.json") as { version?: unknown };
  const problems = releaseVersionProblems(tag, packageJson, read("sdk-gen/schema.json"));
  if (typeof packageJson.version === "string")
    problems.push(...changelogProblems(packageJson.version, readFileSync(path.join(root, "CHANGELOG.md"), "utf8")));
  if (problems.length > 0) {
    for (const problem of problems) console.error(`release-check: ${problem}`);
    process.exit(1);
  }
  console.log(`release-check: tag ${tag}, package.json and sdk-gen/schema.json agree, and CHANGELOG.md has the version's section`);
}
