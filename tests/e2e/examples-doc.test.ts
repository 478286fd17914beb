import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "../../simulator";
import { fencedBlocks } from "../docs/examples";
import { ExampleStack, installedConsumer, ROOT } from "./support";

/**
 * docs/examples.md's commands for the examples a new environment starts from, run as a user runs them: each line
 * of the section's `sh` block, word for word, by a shell in the example's project (its stack selected, as
 * `pulumi stack init` leaves it), against a simulated site. Only the site's address and key are the simulator's
 * where a line names them (the page's `http://127.0.0.1:8080` is the simulator's default port).
 */

interface Section {
  readonly example: string;
  /** The site the page's commands assume. */
  readonly site: () => Promise<Simulator>;
  /** What the page leaves to the reader: the site's address and key, when its commands do not set them. */
  readonly pointAt?: (s: ExampleStack, sim: Simulator) => Promise<void>;
  /** What the page's `pulumi up` must have made. */
  readonly made: (sim: Simulator, outputs: Record<string, unknown>) => void;
}

const KEY = "demo_api_key";

const SECTIONS: readonly Section[] = [
  {
    example: "environment-bootstrap",
    // The page's subscription 1001 and its EUR prices: the demo site, selling in euros too.
    site: () => startSimulator({ seed: "demo", nonPrimaryCurrencies: ["EUR"] }),
    pointAt: async (s, sim) => {
      await s.config("billing:baseUrl", sim.url);
      await s.config("billing:apiKey", KEY, true);
    },
    made: (sim, out) => {
      assert.equal(sim.getSubscription(1001)?.productId, out.launchProductId, "subscription 1001 moved onto launch");
      assert.deepEqual(out.annualCurrencyPrices, { EUR: { baseline: 450 } });
      assert.deepEqual(
        sim.offers().map((o) => o.handle),
        ["launch-annual-49000"],
      );
      const codes = sim.reasonCodes().map((r) => r.code);
      assert.ok(codes.includes("too_expensive") && codes.includes("missing_feature"), codes.join(", "));
    },
  },
  {
    example: "site-config",
    site: () => startSimulator({ seed: "demo" }),
    made: (sim) => {
      assert.deepEqual(sim.reasonCodes().find((r) => r.code === "too_expensive")?.description, "It costs too much");
      assert.ok(sim.metafields().some((m) => m.resourceType === "subscriptions" && m.name === "Region"));
      assert.deepEqual(
        sim.offers().map((o) => [o.handle, o.name, o.productId]),
        [["launch-bundle", "Launch bundle", 2]], // the demo site's `pro`
      );
    },
  },
];

/** The lines of the `sh` block under the page's heading for `examples/<example>`. */
async function shownLines(example: string): Promise<string[]> {
  const page = await readFile(path.join(ROOT, "docs/examples.md"), "utf8");
  const start = page.indexOf(`## \`examples/${example}\``);
  assert.ok(start >= 0, `docs/examples.md has a section for examples/${example}`);
  const end = page.indexOf("\n## ", start + 1);
  const [block] = fencedBlocks(page.slice(start, end < 0 ? undefined : end)).filter((b) => b.info === "sh");
  assert.ok(block, `the section for examples/${example} shows its commands`);
  return block.code.split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
}

function sh(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("bash", ["-c", line], { cwd, env, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("docs/examples.md's commands, word for word, with the real CLI", () => {
  for (const section of SECTIONS) {
    it(`examples/${section.example}: every line of its section runs, and its \`pulumi up\` makes what the page says`, async () => {
      const lines = await shownLines(section.example);
      assert.ok(
        lines.some((l) => /^pulumi up\b/.test(l)),
        "the section ends in an up",
      );
      const c = await installedConsumer();
      const sim = await section.site();
      const s = await ExampleStack.create(c, section.example, `doc-${section.example}`);
      try {
        await section.pointAt?.(s, sim);
        for (const line of lines) {
          const shown = line.replaceAll("http://127.0.0.1:8080", sim.url);
          const run = await sh(shown, s.cwd, { ...s.ws.env, PULUMI_NODEJS_TRANSPILE_ONLY: "true" });
          assert.equal(run.code, 0, `\`${line}\` failed:\n${run.stdout}\n${run.stderr}`);
        }
        section.made(sim, await s.stackOutputs());
        await s.run(["destroy", "--yes", "--skip-preview"]);
      } finally {
        await s.dispose();
        await sim.close();
      }
    });
  }
});
