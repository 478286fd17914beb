import assert from "node:assert/strict";
import { accessSync, constants } from "node:fs";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { installPacked } from "../../scripts/lib/packed-install";
import { ensurePulumi } from "../../scripts/lib/pulumi-cli";
import { type Simulator, startSimulator } from "../../simulator";
import { examples } from "../docs/examples";
import { type Consumer, ExampleStack, mutations, ROOT } from "./support";

// The policy pack as users run it: the package and @pulumi/policy installed from the registry's way (the packed
// tarball), `pulumi preview --policy-pack node_modules/pulumi-subscription-billing/policy/pack`, against the
// simulator. Its own consumer folder: the shared one (installedConsumer) has no @pulumi/policy.

const API_KEY = "sk_e2e_policy_4b7e19c2";
const POLICY_VERSION: string = require("../../package.json").devDependencies["@pulumi/policy"];

/** A program beside the example: webhooks as config says, and a migration whose preservePeriod comes from an output. */
const GUARDED_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { SubscriptionMigration, WebhookEndpoint, WebhookSettings } from "pulumi-subscription-billing";

const config = new pulumi.Config("guarded");
const settings = new WebhookSettings("webhooks", {
  webhooksEnabled: config.requireBoolean("webhooksEnabled"),
  disableOnDelete: config.getBoolean("disableOnDelete") ?? false,
});
const url = config.get("endpointUrl");
if (url) new WebhookEndpoint("hooks", { url, events: ["payment_failure"] });
// Unknown at preview (the settings are new); at up, whatever config says, here: not stated.
const preservePeriod = settings.appliedAt.apply(() => config.getBoolean("preservePeriod"));
new SubscriptionMigration("later", { subscriptionId: config.requireNumber("subscriptionId"), productHandle: "free", preservePeriod });
`;

const text = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

describe("the policy pack with the real CLI", () => {
  let dir: string;
  let c: Consumer;
  let sim: Simulator;
  let launcher: string;
  let review: ExampleStack;
  let guarded: ExampleStack;
  const ids = { active: 0, trialEnded: 0 };

  /** `pulumi preview` with the pack, and a policy config file when given. */
  const preview = async (s: ExampleStack, policyConfig?: object) => {
    const args = ["preview", "--policy-pack", launcher];
    if (policyConfig) {
      const file = path.join(dir, `policy-config-${s.stack}.json`);
      await writeFile(file, JSON.stringify(policyConfig));
      args.push("--policy-pack-config", file);
    }
    return s.run(args, { allowFailure: true });
  };
  const migrateTo = async (subscriptionId: number, productHandle: string, preservePeriod: boolean | undefined) => {
    await review.config("migration:subscriptionId", String(subscriptionId));
    await review.config("migration:productHandle", productHandle);
    if (preservePeriod === undefined) await review.run(["config", "rm", "migration:preservePeriod"]);
    else await review.config("migration:preservePeriod", String(preservePeriod));
  };

  before(async () => {
    const bin = await ensurePulumi();
    dir = await mkdtemp(path.join(tmpdir(), "billing-policy-consumer-"));
    installPacked(dir, { dependencies: { "@pulumi/policy": POLICY_VERSION, "ts-node": "10.9.2", typescript: "5.9.3" }, quiet: true });
    await mkdir(path.join(dir, "reviewed-migration"));
    for (const f of ["Pulumi.yaml", "index.ts"]) {
      await cp(path.join(ROOT, "examples/reviewed-migration", f), path.join(dir, "reviewed-migration", f));
    }
    await mkdir(path.join(dir, "guarded"));
    await writeFile(
      path.join(dir, "guarded/Pulumi.yaml"),
      "name: billing-guarded\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    await writeFile(path.join(dir, "guarded/index.ts"), GUARDED_PROGRAM);
    c = { dir, bin, example: (name) => path.join(dir, name) };
    launcher = path.join(dir, "node_modules/pulumi-subscription-billing/policy/pack");

    sim = await startSimulator({ apiKey: API_KEY });
    sim.addProduct({ id: 11, handle: "starter", priceInCents: 1000 });
    sim.addProduct({ id: 12, handle: "growth", priceInCents: 5000 });
    sim.addProduct({ id: 13, handle: "free", priceInCents: 0 });
    ids.active = sim.addSubscription({ productHandle: "starter", state: "active" }).id;
    ids.trialEnded = sim.addSubscription({ productHandle: "starter", state: "trial_ended" }).id;

    review = await ExampleStack.create(c, "reviewed-migration", "review");
    guarded = await ExampleStack.create(c, "guarded", "guarded");
    for (const s of [review, guarded]) {
      await s.config("billing:baseUrl", sim.url);
      await s.config("billing:apiKey", API_KEY, true);
    }
  });

  after(async () => {
    await review?.dispose();
    await guarded?.dispose();
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("ships the launcher executable in the installed package", () => {
    accessSync(launcher, constants.X_OK);
  });

  it("an unstated preservePeriod and an unacknowledged charge stop the preview, each message with its fix", async () => {
    await migrateTo(ids.active, "growth", undefined);
    const res = await preview(review);
    assert.notEqual(res.code, 0, text(res));
    const name = `SubscriptionMigration 'subscription-${ids.active}'`;
    assert.match(text(res), /pulumi-subscription-billing@v0\.1\.0/);
    assert.match(text(res), /\[mandatory\]\s+migration-states-preserve-period/);
    assert.ok(text(res).includes(`${name} does not state preservePeriod.`), text(res));
    assert.match(text(res), /Add preservePeriod: true or preservePeriod: false to its inputs/);
    // No preserve_period: the simulator charges the new product's full price.
    assert.match(text(res), /\[mandatory\]\s+migration-charge-acknowledged/);
    assert.ok(text(res).includes(`${name} would charge 5000 cents (50.00)`), text(res));
    assert.match(text(res), /add maxChargeInCents: 5000 to its inputs/);
    assert.deepEqual(mutations(sim.requests), []);
  });

  it("a trial_ended subscription stops the preview with the recommended path", async () => {
    await migrateTo(ids.trialEnded, "free", true);
    const res = await preview(review);
    assert.notEqual(res.code, 0, text(res));
    assert.match(text(res), /\[mandatory\]\s+migration-subscription-eligible/);
    assert.match(text(res), new RegExp(`migrates subscription ${ids.trialEnded}, which is trial_ended: `));
    assert.match(text(res), /cancel the subscription, change its product, then reactivate it/);
  });

  it("a compliant migration passes: period stated, nothing charged, an active subscription", async () => {
    await migrateTo(ids.active, "free", true);
    const res = await preview(review);
    assert.equal(res.code, 0, text(res));
    assert.match(text(res), /pulumi-subscription-billing@v0\.1\.0/);
    assert.doesNotMatch(text(res), /\[(mandatory|advisory)\]/);
  });

  it("the README's first program passes the pack, production config and all, at a site that has what it names", async () => {
    // The program as the README shows it (tests/docs/ runs every docs program through the pack's policies; this
    // adds what only a site gives: the migration's previewed charge, against its maxChargeInCents).
    const program = examples(["README.md"]).find((e) => e.code.includes("new SubscriptionMigration("));
    assert.ok(program, "the README has a program with a SubscriptionMigration");
    const site = await startSimulator({ apiKey: API_KEY });
    site.addProduct({ id: 21, handle: "basic", priceInCents: 1900 });
    site.addProduct({ id: 22, handle: "pro", priceInCents: 4900 });
    site.addSubscription({ id: 1001, productHandle: "basic", state: "active" });
    await mkdir(path.join(dir, "readme"));
    await writeFile(
      path.join(dir, "readme/Pulumi.yaml"),
      "name: billing-readme\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    await writeFile(path.join(dir, "readme/index.ts"), program.code);
    const readme = await ExampleStack.create(c, "readme", "readme");
    try {
      await readme.config("billing:baseUrl", site.url);
      await readme.config("billing:apiKey", API_KEY, true);
      const production = { production: true };
      const res = await preview(readme, {
        "webhooks-stay-enabled-in-production": production,
        "pricing-change-acknowledged-in-production": production,
        "data-kept-in-production": production,
      });
      assert.equal(res.code, 0, text(res));
      assert.match(text(res), /pulumi-subscription-billing@v0\.1\.0/);
      assert.doesNotMatch(text(res), /\[(mandatory|advisory)\]/);
      // The service previewed a charge (basic → pro, the period kept), which maxChargeInCents covers.
      assert.ok(
        site.requests.some((r) => r.path.endsWith("/migrations/preview.json")),
        "the migration was previewed",
      );
      assert.deepEqual(mutations(site.requests), []);
    } finally {
      await readme.dispose();
      await site.close();
    }
  });

  it("the stack's policy config: a threshold, and a policy made advisory", async () => {
    // With preserve_period the simulator charges half: 2500 cents.
    await migrateTo(ids.active, "growth", true);
    const advisory = await preview(review, {
      "migration-charge-acknowledged": { enforcementLevel: "advisory", chargeThresholdInCents: 1000 },
    });
    assert.equal(advisory.code, 0, text(advisory));
    assert.match(text(advisory), /\[advisory\]\s+migration-charge-acknowledged/);
    assert.match(text(advisory), /would charge 2500 cents \(25\.00\) .*above this stack's threshold of 1000 cents \(10\.00\)/);
  });

  it("production webhooks: off, disabled on delete, and an http endpoint stop the preview; an unknown preservePeriod is not judged", async () => {
    await guarded.config("guarded:subscriptionId", String(ids.active));
    await guarded.config("guarded:webhooksEnabled", "false");
    await guarded.config("guarded:disableOnDelete", "true");
    await guarded.config("guarded:endpointUrl", "http://127.0.0.1:9/hooks?token=e2e-s3cr3t");
    const res = await preview(guarded, { "webhooks-stay-enabled-in-production": { production: true } });
    assert.notEqual(res.code, 0, text(res));
    assert.match(text(res), /WebhookSettings 'webhooks' turns webhook delivery off \(webhooksEnabled: false\) on a production stack/);
    assert.match(text(res), /WebhookSettings 'webhooks' has disableOnDelete: true on a production stack/);
    assert.match(text(res), /WebhookEndpoint 'hooks' sends webhooks to http:\/\/127\.0\.0\.1:9\/…, which is not https/);
    assert.doesNotMatch(text(res), /e2e-s3cr3t/);
    // preservePeriod is an output of the new settings: not known at preview, so neither a violation nor CrossGuard's note.
    assert.doesNotMatch(text(res), /preservePeriod|can't run policy/);
  });

  it("at up the value is known: the unstated preservePeriod stops the migration before anything is sent for it", async () => {
    await guarded.config("guarded:webhooksEnabled", "true");
    await guarded.config("guarded:disableOnDelete", "false");
    await guarded.run(["config", "rm", "guarded:endpointUrl"]);
    const res = await guarded.run(["up", "--yes", "--skip-preview", "--policy-pack", launcher], { allowFailure: true });
    assert.notEqual(res.code, 0, text(res));
    assert.match(text(res), /SubscriptionMigration 'later' does not state preservePeriod/);
    assert.deepEqual(
      mutations(sim.requests).map((r) => `${r.method} ${r.path}`),
      ["PUT /webhooks/settings.json"],
      "the settings were applied; no migration was posted",
    );
    assert.equal(sim.getSubscription(ids.active)?.productId, 11);
  });
});
