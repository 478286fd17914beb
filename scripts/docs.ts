/**
 * `npm run docs`: writes what is generated from the kind declarations (provider/kinds): the resource reference
 * in docs/resources.md (the README links it), each kind's documented Args and Outputs interfaces (provider/kinds/generated/), and the
 * `@example` of each resource class, and the SDK's documented input types (sdk/generated/). A test fails when
 * any of them is stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { KINDS } from "../provider";
import { kindReference, withReference } from "../provider/kinds/docs";
import { kindTypesFile, moduleOf, withClassExample } from "../provider/kinds/tsdoc";
import { SDK_INPUT_TYPES_FILE, sdkInputTypesFile } from "./lib/sdk-input-types";

/** The page whose `kinds:begin` … `kinds:end` section is the generated reference (tests/provider/docs.test.ts reads it). */
const REFERENCE_PAGE = "docs/resources.md";

const root = path.join(__dirname, "..");
const kinds = Object.values(KINDS).map((m) => m.kind);

/** Writes `file` when `update` changes it; says which. */
function rewrite(file: string, update: (before: string) => string): void {
  const before = (() => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return "";
    }
  })();
  const after = update(before);
  if (after !== before) writeFileSync(file, after);
  console.log(`${path.relative(root, file)}: ${after === before ? "up to date" : "rewritten"}`);
}

rewrite(path.join(root, REFERENCE_PAGE), (page) => withReference(page, kindReference(kinds)));
mkdirSync(path.join(root, "provider/kinds/generated"), { recursive: true });
for (const kind of kinds) {
  rewrite(path.join(root, "provider/kinds/generated", `${moduleOf(kind)}.ts`), () => kindTypesFile(kind));
  rewrite(path.join(root, "provider/kinds", `${moduleOf(kind)}.ts`), (source) => withClassExample(source, kind));
}
mkdirSync(path.join(root, "sdk/generated"), { recursive: true });
rewrite(path.join(root, SDK_INPUT_TYPES_FILE), () => sdkInputTypesFile());
