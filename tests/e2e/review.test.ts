import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Simulator, startSimulator } from "../../simulator";
import { fixturePolicyPack } from "../fixtures/preview/pack";
import { type Consumer, ExampleStack, installedConsumer, mutations } from "./support";

// billing-review as a pull request's workflow runs it: `pulumi preview --json` of
// examples/reviewed-migration against the simulator, piped into the `billing-review`
// of the installed package. Set REVIEW_SAMPLE=FILE to keep the first summary.

const API_KEY = "sk_e2e_review_7d2e90b4";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe("billing-review with the real CLI (examples/reviewed-migration)", () => {
  let c: Consumer;
  let sim: Simulator;
  let s: ExampleStack;
  let dir: string;
  let subscriptionId: number;
  const summaries: string[] = [];

  /** The installed package's bin, as `npx billing-review` runs it; input on stdin. */
  function review(input: string, args: string[] = []): Promise<Run> {
    const bin = path.join(c.dir, "node_modules/pulumi-subscription-billing/dist/review/bin.js");
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("error", reject);
      child.on("close", (code) => {
        summaries.push(stdout, stderr);
        resolve({ code: code ?? 1, stdout, stderr });
      });
      child.stdin.end(input);
    });
  }

  /** `pulumi preview --json` of the stack; `stream` gives the engine's event stream instead of the document. */
  async function previewJson(args: string[] = [], stream = false): Promise<Run> {
    const env = { PULUMI_NODEJS_TRANSPILE_ONLY: "true", ...(stream ? { PULUMI_ENABLE_STREAMING_JSON_PREVIEW: "true" } : {}) };
    const res = await s.ws.pulumi(["preview", "--json", ...args, "--stack", s.stack], { cwd: s.cwd, allowFailure: true, env });
    s.outputs.push(res.stdout, res.stderr);
    return res;
  }

  /** The charge line the program logs (previewSubscriptionMigration), as amounts: the table must say the same. */
  function loggedCharge(doc: string): string[] {
    const info = (JSON.parse(doc).diagnostics as { message: string; severity: string }[]).find((d) => d.severity === "info")?.message ?? "";
    const m = /charge (-?\d+\.\d\d), prorated adjustment (-?\d+\.\d\d), credit applied (-?\d+\.\d\d), payment due (-?\d+\.\d\d)/.exec(info);
    assert.ok(m, `the program logs the charge: ${info}`);
    return m.slice(1, 5);
  }

  const lines = (r: Run) => r.stdout.split("\n");

  before(async () => {
    c = await installedConsumer();
    dir = await mkdtemp(path.join(tmpdir(), "billing-review-e2e-"));
    sim = await startSimulator({ apiKey: API_KEY });
    sim.addProduct({ id: 11, handle: "starter" });
    sim.addProduct({
      id: 12,
      handle: "growth",
      pricePoints: [
        { id: 120, handle: "growth-monthly", default: true },
        { id: 121, handle: "growth-annual" },
      ],
    });
    sim.addProduct({ id: 13, handle: "scale" });
    subscriptionId = sim.addSubscription({ productHandle: "starter", state: "active" }).id;
    s = await ExampleStack.create(c, "reviewed-migration", "pr-review");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", API_KEY, true);
    await s.config("migration:subscriptionId", String(subscriptionId));
    await s.config("migration:productHandle", "growth");
  });

  after(async () => {
    await s?.dispose();
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("pulumi preview --json | billing-review: from → to, the charge the simulator previews; nothing sent", async () => {
    const preview = await previewJson();
    assert.equal(preview.code, 0, preview.stderr);
    const [charge, proration, credit, due] = loggedCharge(preview.stdout);
    assert.notEqual(charge, "0.00", "the simulator charges for starter → growth");

    const out = path.join(dir, "summary.md");
    const r = await review(preview.stdout, ["--output", out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await readFile(out, "utf8"), r.stdout, "--output holds what stdout shows");
    if (process.env.REVIEW_SAMPLE) await writeFile(process.env.REVIEW_SAMPLE, r.stdout);
    const got = lines(r);
    for (const line of [
      "## Billing review: stack `pr-review` (project `billing-reviewed-migration`)",
      "Changes: 2 to create.",
      "### Subscription migrations (1)",
      `| ${subscriptionId} (active) | create | \`starter\` | \`growth\`, default price point | ${charge} | ${proration} | ${credit} | ${due} | defaults |`,
    ]) {
      assert.ok(got.includes(line), `${line}\n--- in ---\n${r.stdout}`);
    }
    assert.doesNotMatch(r.stdout, /__provider|exports\.handler|The preview failed/);
    assert.deepEqual(mutations(sim.requests), []);
  });

  it("maxChargeInCents shows among the options; below the charge the check refuses and the summary says why", async () => {
    await s.config("migration:maxChargeInCents", "100000");
    const within = await previewJson();
    assert.equal(within.code, 0, within.stderr);
    const [charge] = loggedCharge(within.stdout);
    const ok = await review(within.stdout);
    assert.match(
      ok.stdout,
      new RegExp(`^\\| ${subscriptionId} \\(active\\) \\| create \\| .* \\| ${charge} \\| .* \\| maxChargeInCents: 1000\\.00 \\|$`, "m"),
    );

    await s.config("migration:maxChargeInCents", "1");
    const over = await previewJson();
    assert.notEqual(over.code, 0);
    const refused = await review(over.stdout);
    assert.equal(refused.code, 0, refused.stderr);
    assert.ok(lines(refused).includes("**The preview failed**: 1 error, listed under Errors."), refused.stdout);
    assert.match(
      refused.stdout,
      /^- `subscription-\d+` \(pulumi-nodejs:dynamic\/billing:SubscriptionMigration\): .*above maxChargeInCents 1 \(0\.01\)/m,
    );
    await s.run(["config", "rm", "migration:maxChargeInCents"]);
  });

  it("the event stream with a policy pack: the migration's violation under it, the pack named", async () => {
    const pack = await fixturePolicyPack(1_000_000);
    const preview = await previewJson(["--policy-pack", pack], true);
    assert.equal(preview.code, 0, preview.stderr);
    const r = await review(preview.stdout);
    assert.equal(r.code, 0, r.stderr);
    const got = lines(r);
    for (const line of [
      `**Subscription ${subscriptionId}** (\`subscription-${subscriptionId}\`)`,
      "- Policy **advisory** `review-fixture/migration-declares-max-charge`: A migration declares the most it may charge. declare maxChargeInCents \\| the charge a reviewer accepted",
      "Policy packs run: `review-fixture` 0.0.1.",
    ]) {
      assert.ok(got.includes(line), `${line}\n--- in ---\n${r.stdout}`);
    }
    assert.ok(got.some((l) => l.startsWith(`| ${subscriptionId} (active) | create | \`starter\` | \`growth\``)));
  });

  it("a mandatory violation fails the preview; the summary says so and names it (exit 0: the summary is the product)", async () => {
    const preview = await previewJson(["--policy-pack", await fixturePolicyPack(0)], true);
    assert.notEqual(preview.code, 0);
    const r = await review(preview.stdout);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(lines(r).includes("**The preview failed**: 1 error, listed under Errors."), r.stdout);
    assert.match(
      r.stdout,
      /^- Policy \*\*mandatory\*\* `review-fixture\/migration-charge-limit`: No migration charges more than the limit\. charge \d+ cents is above 0$/m,
    );
    assert.ok(lines(r).includes("- preview failed"));
  });

  it("the package's own pack in a project without @pulumi/policy: what the pack said, and exit 3", async () => {
    // The shared consumer installs no @pulumi/policy: the launcher cannot start, and the CLI cancels the preview.
    const launcher = path.join(c.dir, "node_modules/pulumi-subscription-billing/policy/pack");
    for (const stream of [true, false]) {
      const preview = await previewJson(["--policy-pack", launcher], stream);
      assert.notEqual(preview.code, 0);
      assert.match(preview.stderr, /failed to start/);
      const r = await review(preview.stdout);
      assert.equal(r.code, 3, `${r.stderr}\n${r.stdout}`);
      assert.ok(
        lines(r).includes(
          `pulumi-subscription-billing policy pack: cannot find @pulumi/policy from ${c.dir}/node_modules/pulumi-subscription-billing: install it in the project: npm i -D @pulumi/policy`,
        ),
        r.stdout,
      );
      assert.match(r.stdout, /^\*\*A policy pack it was given did not run\*\*/m);
      assert.doesNotMatch(r.stdout, /which this input does not hold/);
    }
  });

  it("after up, a new target is a replace from the product the service reports now", async () => {
    await s.run(["up", "--yes", "--skip-preview"]);
    await s.config("migration:productHandle", "scale");
    const preview = await previewJson();
    assert.equal(preview.code, 0, preview.stderr);
    const [charge, proration, credit, due] = loggedCharge(preview.stdout);
    const r = await review(preview.stdout);
    assert.ok(lines(r).includes("Changes: 1 to replace, 1 unchanged."), r.stdout);
    assert.match(
      r.stdout,
      new RegExp(
        `^\\| ${subscriptionId} \\(active\\) \\| replace \\| \`growth\`[^|]* \\| \`scale\`, default price point \\| ${charge} \\| ${proration} \\| ${credit} \\| ${due} \\| defaults \\|$`,
        "m",
      ),
    );
  });

  it("a refused change still gives a summary: the error with the resource, no migration row", async () => {
    await s.config("migration:productHandle", "growth");
    await s.config("migration:pricePointHandle", "growth-annual");
    const preview = await previewJson();
    assert.notEqual(preview.code, 0, "the same-product migration is refused at preview");
    const r = await review(preview.stdout);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(lines(r).includes("**The preview failed**: 1 error, listed under Errors."), r.stdout);
    // Refused by the check (which names the property) or by the diff, as the provider decides: either names the resource.
    assert.match(
      r.stdout,
      new RegExp(
        `^- \`subscription-${subscriptionId}\` \\(pulumi-nodejs:dynamic/billing:SubscriptionMigration\\): [^\n]*subscription ${subscriptionId} is already on product 'growth'`,
        "m",
      ),
    );
    assert.doesNotMatch(r.stdout, /### Subscription migrations|at Object\.refuse/);
    await s.run(["config", "rm", "migration:pricePointHandle"]);
  });

  it("the CLI: --help, a file argument, unreadable input and bad usage say why", async () => {
    const help = await review("", ["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage:\n {2}pulumi preview --json \| billing-review \[options\]/m);

    const text = await review("Previewing update (pr-review):\n");
    assert.equal(text.code, 1);
    assert.match(text.stderr, /^billing-review: stdin is not JSON \(it starts with "Previewing update \(pr-review\):"\)/);

    const empty = await review("");
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /stdin is empty/);

    const missing = await review("", [path.join(dir, "absent.json")]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read .*absent\.json: ENOENT/);

    const file = path.join(dir, "preview.json");
    await writeFile(file, (await previewJson()).stdout);
    // After the up, the preview holds little (the migration is applied: no warning about it any more), so a small limit.
    const fromFile = await review("", [file, "--max-chars", "200"]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.ok(fromFile.stdout.length <= 200);
    assert.match(fromFile.stdout, /^## Billing review: stack `pr-review`/);
    assert.match(fromFile.stdout, /more characters cut here \(--max-chars 200\)/);

    const bad = await review("", ["--bogus"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Unknown option '--bogus'[\s\S]*see billing-review --help/);
  });

  it("no credential in any summary or CLI output", () => {
    assert.ok(summaries.length > 0);
    assert.ok(!summaries.join("\n").includes(API_KEY), "a summary holds the API key");
    assert.ok(!s.outputs.join("\n").includes(API_KEY), "CLI output holds the API key");
  });
});
