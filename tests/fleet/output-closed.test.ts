import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../fleet/report";
import { installFakePulumi, useScenario } from "./fake-pulumi";

/**
 * `billing-fleet` whose reader is gone (the parent that read its output died: the pipe closed): the run goes
 * on, and SIGTERM still stops its stacks gracefully and ends the process, as it does with a reader. The
 * Pulumi CLI is the fake one (fake-pulumi.ts), each site's `up` printing progress and then running until
 * asked to stop.
 */

const root = path.resolve(__dirname, "../..");
const bin = path.join(root, "dist/fleet/bin.js");
// The package requires Node 22 and brings it as a dev dependency; the machine's own node may be older.
const node22 = path.join(root, "node_modules/node/bin/node");
/** Far under the 120 s a pod is given to stop (render k8s's terminationGracePeriodSeconds); a hang fails here. */
const GRACE_MS = 60_000;

let fake: string;
const savedPath = process.env.PATH;
beforeAll(async () => {
  fake = await installFakePulumi();
});
afterAll(async () => {
  process.env.PATH = savedPath;
  delete process.env.FAKE_PULUMI_DIR;
  await rm(fake, { recursive: true, force: true });
});

/** Resolves with the exit code once the process has exited, or with "still running" after `ms`. */
const exited = (child: ChildProcessWithoutNullStreams, ms: number) =>
  new Promise<number | null | "still running">((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => resolve("still running"), ms);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });

describe("billing-fleet whose output's reader is gone", () => {
  // A project directory, and a module's inline program (run in the runner's own process, with the SDK's handlers);
  // a parent that died takes stderr's reader with it too.
  it.each([
    ["./project", "stdout"],
    ["./site.js", "stdout"],
    ["./project", "stdout and stderr"],
  ] as const)(
    "%s, %s closed: keeps running its stacks, then on SIGTERM stops them gracefully and exits",
    async (program, closed) => {
      if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first`);
      const progress = Array.from({ length: 20 }, (_, i) => ({
        resourcePreEvent: { metadata: { op: "create", urn: `urn:pulumi:us::shop::billing:index:Product::p${i}`, type: "x", provider: "" } },
      }));
      const dir = await useScenario(fake, {
        up: [{ events: progress, stdout: Array.from({ length: 20 }, (_, i) => `+ p${i} creating\n`), hang: true }],
      });
      await mkdir(path.join(dir, "project"));
      await writeFile(path.join(dir, "project", "Pulumi.yaml"), "name: shop\nruntime: nodejs\n");
      await writeFile(path.join(dir, "site.js"), "exports.program = () => ({});\n");
      const fleet = path.join(dir, "fleet.yaml");
      await writeFile(fleet, [`program: ${program}`, `backend: file://${dir}/state`, "sites:", "  - name: us", "  - name: uk"].join("\n"));
      const child = spawn(existsSync(node22) ? node22 : process.execPath, [bin, "up", fleet, "--plain"], {
        env: { ...process.env, PULUMI_CONFIG_PASSPHRASE: "correct horse" },
      });
      let err = "";
      child.stderr.on("data", (d) => (err += d));
      try {
        // The reader goes once the run has begun, while the stacks still have progress to report.
        await new Promise((resolve) => child.stdout.once("data", resolve));
        child.stdout.destroy();
        if (closed === "stdout and stderr") child.stderr.destroy();
        // Both stacks run until asked to stop (the fake marks it); the runner must outlive its reader till then.
        while (!existsSync(path.join(dir, "hanging")) && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
        expect({ exitedBeforeSigterm: child.exitCode, err }).toEqual({ exitedBeforeSigterm: null, err: "" });

        child.kill("SIGTERM");
        expect(await exited(child, GRACE_MS)).toBe(1);
        if (closed === "stdout")
          expect(err).toMatch(/^billing-fleet: SIGTERM: stopping the running stacks gracefully; sites not started will not run\n/);
        expect(err).not.toMatch(/EPIPE|Unhandled/);
        // Stopped gracefully: each stack's CLI was asked to stop, and the run's report says so.
        const report = JSON.parse(await readFile(path.join(dir, ".billing-fleet", "last-up.json"), "utf8")) as FleetReport;
        expect(report.sites.map((s) => [s.name, s.result, s.error])).toEqual([
          ["us", "failed", "interrupted: the CLI was asked to stop; what it applied is in the stack's state"],
          ["uk", "failed", "interrupted: the CLI was asked to stop; what it applied is in the stack's state"],
        ]);
      } finally {
        child.kill("SIGKILL");
      }
    },
    120_000,
  );
});
