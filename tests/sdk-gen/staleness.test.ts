import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { packageSchema } from "../../plugin/schema";
import { KINDS } from "../../provider/kinds";

/**
 * The checked-in schema and SDKs (sdk-gen/) are what `npm run sdk-gen` writes from the kind
 * declarations now. Cheap: the schema is compared as text, and each SDK folder records the
 * sha256 of the schema it was generated from; running the generator itself is left to the script.
 */

const ROOT = path.resolve(__dirname, "../..");
const FIX = "run `npm run sdk-gen` and commit sdk-gen/";

describe("sdk-gen: the checked-in schema and SDKs are not stale", () => {
  const checkedIn = readFileSync(path.join(ROOT, "sdk-gen/schema.json"), "utf8");

  it("sdk-gen/schema.json is the schema generated from the kind declarations at package.json's version", () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    const now = `${JSON.stringify(
      packageSchema(
        Object.values(KINDS).map((m) => m.kind),
        version,
      ),
      null,
      2,
    )}\n`;
    expect(checkedIn, `sdk-gen/schema.json is stale: ${FIX}`).toBe(now);
  });

  for (const lang of ["nodejs", "python", "go"]) {
    it(`sdk-gen/${lang} was generated from that schema`, () => {
      const recorded = readFileSync(path.join(ROOT, "sdk-gen", lang, ".schema-sha256"), "utf8").trim();
      const sha = createHash("sha256").update(checkedIn).digest("hex");
      expect(recorded, `sdk-gen/${lang} was generated from another schema: ${FIX}`).toBe(sha);
    });
  }
});
