import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { policyPacksNotRun, readInput } from "../../review";
import { LAUNCHER_FAILURE } from "../../review/policy-packs";

// Whether the policy packs a preview was given ran: the captured previews of the package's pack in a project
// without @pulumi/policy (tests/fixtures/preview/captured.json says how they were made), and billing-review's
// exit status on them.
const ROOT = path.resolve(__dirname, "../..");
const FIXTURES = path.join(ROOT, "tests/fixtures/preview");
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), "utf8");
const SAID =
  "pulumi-subscription-billing policy pack: cannot find @pulumi/policy from $CONSUMER/node_modules/pulumi-subscription-billing: install it in the project: npm i -D @pulumi/policy";

/** billing-review as installed (dist/), on a fixture file: its exit status and stdout. */
function review(name: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [path.join(ROOT, "dist/review/bin.js"), path.join(FIXTURES, name)], (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }),
    ),
  );
}

describe("policy packs that did not run", () => {
  it("an event stream: one pack requested (its policyLoadEvent), none ran (no summary), and what the pack said", () => {
    expect(policyPacksNotRun(readInput(fixture("pack-without-policy.events.jsonl")))).toEqual([{ requested: 1, ran: 0, said: [SAID] }]);
  });

  it("the document: the launcher's own error says the pack did not run (the document does not count packs)", () => {
    expect(policyPacksNotRun(readInput(fixture("pack-without-policy.json")))).toEqual([{ ran: 0, said: [SAID] }]);
  });

  it("a pack that failed to start without a word (the stream of a folder pack the CLI could not run) still counts", () => {
    // The shape the pinned CLI streams for `--policy-pack <folder>` when its language host cannot run the folder.
    const stream = ['{"sequence":0,"timestamp":1,"policyLoadEvent":{}}', '{"sequence":1,"timestamp":1,"cancelEvent":{}}'].join("\n");
    expect(policyPacksNotRun(readInput(stream))).toEqual([{ requested: 1, ran: 0, said: [] }]);
  });

  it("packs that ran, and previews given no pack, are not reported", () => {
    for (const name of [
      "migration-create.events.jsonl",
      "migration-mandatory.events.jsonl",
      "migration-create.json",
      "fleet-preview.json",
    ]) {
      expect(policyPacksNotRun(readInput(fixture(name))), name).toEqual([]);
    }
  });

  it("a fleet site whose preview holds the launcher's error is named", () => {
    const diagnostics = [{ message: `${SAID}\n`, severity: "info#err" }];
    const report = {
      kind: "billing-fleet-report",
      version: 1,
      operation: "preview",
      sites: [
        { name: "eu", preview: { diagnostics } },
        { name: "us", preview: {} },
      ],
    };
    expect(policyPacksNotRun(readInput(JSON.stringify(report)))).toEqual([{ site: "eu", ran: 0, said: [SAID] }]);
  });

  it("the launcher starts every failure with the text the review recognizes", () => {
    expect(readFileSync(path.join(ROOT, "policy/pack"), "utf8")).toContain(`process.stderr.write(\`${LAUNCHER_FAILURE} \${message}\\n\`)`);
  });

  it("billing-review writes the summary and exits 3 when a pack did not run, 0 when the packs ran", { timeout: 60_000 }, async () => {
    const names = ["pack-without-policy.events.jsonl", "pack-without-policy.json", "migration-create.events.jsonl"];
    const [stream, document, ran] = await Promise.all(names.map(review));
    for (const res of [stream, document]) {
      expect(res.code, res.stderr).toBe(3);
      expect(res.stdout).toContain(SAID);
      expect(res.stdout).toContain("**A policy pack it was given did not run**");
    }
    expect(ran.code, ran.stderr).toBe(0);
  });
});
