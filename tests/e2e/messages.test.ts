import assert from "node:assert/strict";
import { cp, mkdir } from "node:fs/promises";
import path from "node:path";
import { type Simulator, startSimulator } from "../../simulator";
import { catalogProject } from "./catalog-support";
import { ExampleStack, installedConsumer, ROOT } from "./support";

// Messages whose form depends on the CLI, as a newcomer sees them in `pulumi preview`: a credential
// set without --secret is warned about (key and command, never the value) by the dynamic providers'
// program and by the provider plugin; a missing top-level credential is the resource's problem,
// not "property site value {<nil>}"; a catalog program's mistakes (tiers that overlap, a family renamed, a key the
// service refuses) are each said once, in one line, without a JavaScript stack trace.

const KEY = "sk_e2e_messages_plain_5e71a0";
const text = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;
/** The preview's Diagnostics section: the progress lines above it repeat each message once more. */
const diagnostics = (out: string) => out.slice(out.indexOf("Diagnostics:"));
/** A JavaScript stack frame, as the dynamic-provider host printed one for each error it was given. */
const STACK_FRAME = /^\s+(.*running\s+)?at \S+ \(.*:\d+:\d+\)$/m;
const WRONG_KEY = "sk_e2e_messages_wrong_0b9d44";

/** A family, and a component whose tiers overlap when `overlap` is set (stack config of project messages-catalog). */
const CATALOG_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { Component, ProductFamily } from "pulumi-subscription-billing";

const config = new pulumi.Config();
const family = new ProductFamily("family", { handle: "messages", name: config.get("familyName") ?? "Messages" });
if (config.getBoolean("overlap")) {
  new Component(
    "texts",
    {
      productFamily: "handle:messages",
      kind: "metered",
      handle: "texts",
      name: "Texts",
      unitName: "message",
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.02" },
        { startingQuantity: 50, unitPrice: "0.01" },
      ],
    },
    { dependsOn: [family] },
  );
}
`;

describe("messages in pulumi preview (the real CLI)", () => {
  let sim: Simulator;
  const stacks: ExampleStack[] = [];
  const stack = async (example: string, name: string) => {
    const s = await ExampleStack.create(await installedConsumer(), example, name);
    stacks.push(s);
    return s;
  };

  before(async () => {
    sim = await startSimulator({ apiKey: KEY });
    sim.addProduct({ id: 1, handle: "basic" });
    sim.addProduct({ id: 2, handle: "pro" });
    sim.addSubscription({ productHandle: "basic", state: "active" });
  });

  after(async () => {
    for (const s of stacks) {
      assert.ok(!s.outputs.join("\n").includes(KEY), "the key appeared in the CLI's output");
      await s.dispose();
    }
    await sim?.close();
  });

  it("billing:sites set without --secret: one warning naming the key and the command, the value in no output", async () => {
    const s = await stack("webhook-settings", "plain-sites");
    const sites = { "us-store": { baseUrl: sim.url, apiKey: KEY }, "eu-store": { baseUrl: sim.url, apiKey: KEY } };
    await s.config("billing:sites", JSON.stringify(sites));
    await s.config("webhooks:enabled", JSON.stringify({ "us-store": true, "eu-store": false }));
    const out = text(await s.run(["preview"]));
    const warning =
      "billing:sites is stored in plain text in Pulumi.plain-sites.yaml: run `pulumi config set --secret billing:sites '{…}'` to store it encrypted";
    // Two resources, one warning: once per preview per key.
    assert.equal(count(diagnostics(out), warning), 1, out);
    assert.match(out, /warning: billing:sites is stored in plain text/);
    assert.ok(!out.includes(KEY), "the preview printed the key");

    // Set as the warning says, the warning is gone.
    await s.config("billing:sites", JSON.stringify(sites), true);
    const after = text(await s.run(["preview"]));
    assert.ok(!after.includes("plain text"), after);
  });

  it("billing:apiKey set without --secret through the provider plugin: the plugin warns, naming the key and the command", async () => {
    const c = await installedConsumer();
    await mkdir(c.example("plugin-typescript"), { recursive: true });
    for (const f of ["Pulumi.yaml", "index.ts"]) {
      await cp(path.join(ROOT, "examples/plugin-typescript", f), path.join(c.example("plugin-typescript"), f));
    }
    const s = await stack("plugin-typescript", "plain-key");
    // The engine runs a pulumi-resource-billing found on PATH: the one the consumer's install put in node_modules/.bin.
    s.ws.env.PATH = [path.join(c.dir, "node_modules/.bin"), s.ws.env.PATH].join(path.delimiter);
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", KEY);
    const out = text(await s.run(["preview"]));
    assert.equal(
      count(
        diagnostics(out),
        "billing:apiKey is stored in plain text in Pulumi.<stack>.yaml: run `pulumi config set --secret billing:apiKey <value>`",
      ),
      1,
      out,
    );
    assert.ok(!out.includes(KEY), "the preview printed the key");

    await s.config("billing:apiKey", KEY, true);
    const after = text(await s.run(["preview"]));
    assert.ok(!after.includes("plain text"), after);
  });

  it("a catalog program's mistakes: overlapping tiers on `prices` with the tier's path, a rename and a refused key once, no stack", async () => {
    const c = await installedConsumer();
    await catalogProject(c, "messages-catalog", "messages-catalog", CATALOG_PROGRAM);
    const s = await stack("messages-catalog", "catalog");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", KEY, true);
    await s.run(["up", "--yes"]);

    // Tiers that overlap: the failure on the top-level input, whose value the engine can print, the tier's path in the reason.
    await s.config("overlap", "true");
    const overlap = text(await s.run(["preview"], { allowFailure: true }));
    assert.ok(!overlap.includes("<nil>"), overlap);
    assert.match(
      diagnostics(overlap),
      /resource 'texts': property prices value \{.*\} has a problem: prices\[1\]\.startingQuantity: must be 101 \(one past prices\[0\]'s endingQuantity 100\): prices\[1\] starting at 50 overlaps prices\[0\]/,
    );
    await s.run(["config", "rm", "overlap"]);

    // A family renamed: the service has no update of a family. Said once, on the family, without a stack trace.
    await s.config("familyName", "Renamed");
    const renamed = text(await s.run(["preview"], { allowFailure: true }));
    assert.equal(count(diagnostics(renamed), "product family `messages` cannot be changed"), 1, renamed);
    assert.doesNotMatch(renamed, STACK_FRAME);
    await s.run(["config", "rm", "familyName"]);

    // A key the service refuses (401): which config key it came from and how to set it, once, without a stack trace.
    // With a declared change, whose check reads the family: a preview of no change sends nothing (issue 43).
    await s.config("familyName", "Renamed");
    await s.config("billing:apiKey", WRONG_KEY, true);
    const refused = text(await s.run(["preview"], { allowFailure: true }));
    assert.equal(count(diagnostics(refused), "refused the API key from billing:apiKey (401 Unauthorized"), 1, refused);
    assert.match(refused, /run `pulumi config set --secret billing:apiKey <api-key>` with the site's API key/);
    assert.doesNotMatch(refused, STACK_FRAME);
    assert.ok(!refused.includes(WRONG_KEY), "the preview printed the refused key");
  });

  it("no credential configured: the resource's problem says what to set, never `property site value`", async () => {
    const s = await stack("reviewed-migration", "no-credentials");
    await s.config("migration:subscriptionId", "1001");
    await s.config("migration:productHandle", "pro");
    const res = await s.run(["preview"], { allowFailure: true });
    const out = text(res);
    assert.notEqual(res.code, 0, out);
    assert.ok(!out.includes("property site value"), out);
    assert.match(
      out,
      /resource 'subscription-1001' has a problem: no billing site is configured for this stack: set one with `pulumi config set billing:subdomain <subdomain>` and `pulumi config set --secret billing:apiKey <api-key>`/,
    );
  });
});
