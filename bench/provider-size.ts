import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { KINDS } from "../provider";
import { installPacked } from "../scripts/lib/packed-install";
import type { Row } from "./stats";

const ROOT = path.resolve(__dirname, "..");
const TYPES = Object.values(KINDS).map((m) => m.kind.type);

function measure(cwd: string, script: string): Record<string, number> {
  const out = execFileSync(process.execPath, [script], { cwd, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop()!);
}

/** Figure 4: serialized __provider bytes per resource type, in the repo and installed from the packed tarball. */
export function providerSizeFigure(o: { tarball: boolean }): Row[] {
  const inRepo = measure(ROOT, path.join(__dirname, "provider-size-child.js"));
  let installed: Record<string, number> | undefined;
  if (o.tarball) {
    const dir = mkdtempSync(path.join(tmpdir(), "billing-bench-consumer-"));
    try {
      installPacked(dir, { quiet: true });
      cpSync(path.join(__dirname, "provider-size-child.js"), path.join(dir, "measure.js"));
      installed = measure(dir, path.join(dir, "measure.js"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return TYPES.map((t) => {
    const bytes = [inRepo[t], ...(installed ? [installed[t]] : [])];
    return {
      figure: "4",
      candidate: `__provider of ${t}`,
      reference: "–",
      value: `${inRepo[t]} B in repo` + (installed ? `, ${installed[t]} B installed` : ", installed: skipped (--quick)"),
      spread: "",
      repeats: "1",
      target: "≤ 1024 B",
      met: bytes.every((b) => b !== undefined && b <= 1024),
    };
  });
}
