import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FleetFileError, fleetSchema, loadFleet, parseFleet } from "../../fleet/fleet-file";

/** What a fleet file's problems say, word for word, and where the schema puts them. */
const ROOT = path.resolve(__dirname, "../..");
const FILE = path.join(ROOT, "examples/fleet/fleet.yaml");
const DIR = path.dirname(FILE);

const refusal =
  "holds a credential: a fleet file is committed, so it never holds one. Take the value out of the file (and rotate it if it was committed), then give the whole key as secret config from an environment variable";

describe("the schema's credential issues", () => {
  it("sit at the config key they name, in the fleet's config or a site's, and suggest a variable's name", () => {
    const r = fleetSchema.safeParse({
      program: "./site.ts",
      config: { "billing:api__key": "k1" },
      sites: [{ name: "eu" }, { name: "us--store", config: { "db:password": "k2" } }],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues).toEqual([
      {
        code: "custom",
        path: ["config", "billing:api__key"],
        params: { line: true },
        message: `the fleet's config: config billing:api__key ${refusal}: secrets: { billing:api__key: BILLING_API_KEY }`,
      },
      {
        code: "custom",
        path: ["sites", 1, "config", "db:password"],
        params: { line: true },
        message: `sites[1] (us--store): config db:password ${refusal}: secrets: { db:password: US_STORE_DB_PASSWORD }`,
      },
    ]);
  });
});

describe("parseFleet's refusals", () => {
  it.each([
    [
      "text that is neither YAML nor JSON names the parser's first line only",
      "program: ./site.ts\nsites: [{ name: a }\n",
      `${FILE}: not YAML or JSON: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 1:`,
    ],
    [
      "a file that is not a mapping is named (top)",
      "[]",
      `${FILE} is not a usable fleet file:\n  (top): Invalid input: expected object, received array`,
    ],
    [
      "a site's own missing program is named by the site's path",
      "program: ./site.ts\nsites: [{ name: a }, { name: b, program: ./nowhere.ts }]",
      `${FILE}: sites.1.program: ${path.join(DIR, "nowhere.ts")} does not exist (a project directory or a module file)`,
    ],
    [
      "the fleet's missing program is named program",
      "program: ./nowhere.ts\nsites: [{ name: a }]",
      `${FILE}: program: ${path.join(DIR, "nowhere.ts")} does not exist (a project directory or a module file)`,
    ],
  ])("%s", async (_, text, message) => {
    const err = await parseFleet(text, FILE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FleetFileError);
    expect(err).toMatchObject({ name: "FleetFileError", message });
  });
});

describe("loadFleet", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "billing-fleet-load-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["a missing file", "absent.yaml", "ENOENT"],
    ["a directory", ".", "EISDIR"],
  ])("%s is named by its error code", async (_, name, code) => {
    const file = path.join(dir, name);
    const err = await loadFleet(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FleetFileError);
    expect(err).toMatchObject({ name: "FleetFileError", message: `cannot read the fleet file ${file}: ${code}` });
  });
});
