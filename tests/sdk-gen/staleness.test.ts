import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The checked-in schema and SDKs (sdk-gen/) are what `npm run sdk-gen` writes from the kind
 * declarations now. The schema is compared as text with the one the declarations give (in
 * tests/plugin/schema.test.ts, in process, where the mutation run sees it); each SDK is generated again from the checked-in schema, with the pinned generator (sdk-gen/gen, built as the
 * script builds it when .cache/sdk-gen/gen is missing or older than its source), into a temporary
 * folder, and every file is compared with the checked-in one: a hand-edited, missing or extra file
 * fails, not only a schema hash that no longer matches.
 */

const ROOT = path.resolve(__dirname, "../..");
const FIX = "run `npm run sdk-gen` and commit sdk-gen/";
const LANGS = ["nodejs", "python", "go"] as const;
const GEN_SRC = path.join(ROOT, "sdk-gen/gen");
const GEN_BIN = path.join(ROOT, ".cache/sdk-gen/gen");

function goBinary(): string {
  if (process.env.GO) return process.env.GO;
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
    return "go";
  } catch {
    if (existsSync("/usr/local/go/bin/go")) return "/usr/local/go/bin/go";
    throw new Error("no Go toolchain found (set GO=/path/to/go): the SDKs cannot be generated to compare them");
  }
}

/** The pinned generator, built the way scripts/sdk-gen.ts builds it unless the cached one is current. */
function generator(): string {
  const newestSource = Math.max(...readdirSync(GEN_SRC).map((f) => statSync(path.join(GEN_SRC, f)).mtimeMs));
  if (existsSync(GEN_BIN) && statSync(GEN_BIN).mtimeMs >= newestSource) return GEN_BIN;
  const env = { ...process.env, GOFLAGS: "-mod=mod -buildvcs=false", GOWORK: "off", GO111MODULE: "on" };
  execFileSync(goBinary(), ["build", "-trimpath", "-o", GEN_BIN, "."], { cwd: GEN_SRC, env, stdio: ["ignore", "ignore", "inherit"] });
  return GEN_BIN;
}

/** Every file under `dir`, by path relative to it, with its bytes. */
function files(dir: string, rel = ""): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const name of readdirSync(path.join(dir, rel))) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(path.join(dir, r)).isDirectory()) for (const [k, v] of files(dir, r)) out.set(k, v);
    else out.set(r, readFileSync(path.join(dir, r)));
  }
  return out;
}

describe("sdk-gen: the checked-in schema and SDKs are not stale", () => {
  let out: string;

  beforeAll(() => {
    out = mkdtempSync(path.join(tmpdir(), "billing-sdk-gen-stale-"));
    execFileSync(generator(), ["-schema", path.join(ROOT, "sdk-gen/schema.json"), "-out", out, "-lang", LANGS.join(",")], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }, 600_000);
  afterAll(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  for (const lang of LANGS) {
    it(`sdk-gen/${lang} is, file for file, what the generator writes from that schema`, () => {
      const fresh = files(path.join(out, lang));
      const held = files(path.join(ROOT, "sdk-gen", lang));
      expect(fresh.size, `the generator wrote no ${lang} SDK`).toBeGreaterThan(0);
      const differences = [
        ...[...fresh.keys()].filter((f) => !held.has(f)).map((f) => `missing: sdk-gen/${lang}/${f}`),
        ...[...held.keys()].filter((f) => !fresh.has(f)).map((f) => `not generated: sdk-gen/${lang}/${f}`),
        ...[...fresh.keys()].filter((f) => held.has(f) && !held.get(f)!.equals(fresh.get(f)!)).map((f) => `differs: sdk-gen/${lang}/${f}`),
      ];
      expect(differences, `sdk-gen/${lang} is not what the generator writes: ${FIX}`).toEqual([]);
    });
  }
});
