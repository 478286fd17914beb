/** `npm run docs`: writes README.md's resource reference from the kind declarations (provider/kinds). */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { KINDS } from "../provider";
import { kindReference, withReference } from "../provider/kinds/docs";

const file = path.join(__dirname, "..", "README.md");
const before = readFileSync(file, "utf8");
const after = withReference(before, kindReference(Object.values(KINDS).map((m) => m.kind)));
writeFileSync(file, after);
console.log(before === after ? "README.md: reference up to date" : "README.md: reference rewritten");
