import assert from "node:assert/strict";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer, mutations } from "./support";

const API_KEY = "sk_e2e_bootstrap_d41e77";
const RECEIVER = "https://hooks.bootstrap.example/billing";
const RECEIVER_EVENTS = ["payment_failure", "payment_success", "subscription_state_change"];

describe("examples/environment-bootstrap with the real CLI", () => {
  let sim: Simulator;
  let s: ExampleStack;
  let subs: number[];
  let failed: number[];
  let family: number;
  /** `pulumi stack export` while the stack holds its resources, one per step that changed them. */
  const states: string[] = [];
  const keepState = async () => {
    states.push(await s.exportState());
  };

  before(async () => {
    const c = await installedConsumer();
    // A site that sells in euros too (its Settings → Currencies); the program declares its own EUR prices.
    sim = await startSimulator({ apiKey: API_KEY, nonPrimaryCurrencies: ["EUR"] });
    // Made in the web UI beforehand: the program's family is adopted, not duplicated.
    family = sim.addProductFamily({ handle: "plans", name: "Plans" }).id;
    sim.addProduct({ id: 31, handle: "trial", familyHandle: "plans" });
    subs = [
      sim.addSubscription({ productHandle: "trial", state: "trialing" }).id,
      sim.addSubscription({ productHandle: "trial", state: "active" }).id,
    ];
    failed = Array.from({ length: 1203 }, () => sim.addWebhook({ status: "failed", subscriptionId: subs[0] }).id);
    for (let i = 0; i < 5; i++) sim.addWebhook({ status: "successful", subscriptionId: subs[1] });
    s = await ExampleStack.create(c, "environment-bootstrap", "bootstrap");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", API_KEY, true);
    await s.config("bootstrap:webhookReceiver", RECEIVER);
    await s.config("bootstrap:subscriptions", JSON.stringify(subs));
    await s.config("bootstrap:currencyPrices", JSON.stringify({ EUR: 45 }));
  });

  after(async () => {
    await s?.dispose();
    await sim?.close();
  });

  it("preview sends nothing", async () => {
    await s.run(["preview"]);
    assert.deepEqual(mutations(sim.requests), []);
  });

  it("up builds the catalog (the family adopted) with its euro prices, the reason codes and the custom field, enables webhooks, subscribes the receiver, migrates every seeded subscription onto the new product, replays exactly the failed webhooks", async () => {
    const res = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(res.stdout + res.stderr, new RegExp(`adopted product family \`plans\` \\(id ${family}\\)`));
    const out = await s.stackOutputs();
    assert.equal(out.familyId, family);
    const launch = out.launchProductId as number;
    const annual = out.annualPricePointId as number;
    const sent = mutations(sim.requests).map((r) => `${r.method} ${r.path}`);
    // The catalog first (no family created: adopted), and the product before any migration onto it.
    const productAt = sent.indexOf(`POST /product_families/${family}/products.json`);
    assert.ok(productAt >= 0 && sent.includes(`POST /products/${launch}/price_points.json`), sent.join("\n"));
    assert.ok(!sent.some((r) => r.startsWith("POST /product_families.json")), "the family made beforehand is adopted");
    assert.ok(productAt < sent.findIndex((r) => r.endsWith("/migrations.json")));
    assert.ok(annual > 0);
    // The euro price is set once the price point exists (a create's body cannot carry it), and reads back.
    assert.ok(
      sent.indexOf(`POST /product_price_points/${annual}/currency_prices.json`) >
        sent.indexOf(`POST /products/${launch}/price_points.json`),
    );
    assert.deepEqual(out.annualCurrencyPrices, { EUR: { baseline: 450 } });
    // The offer after the price point it signs up to.
    assert.ok(sent.indexOf("POST /offers.json") > sent.indexOf(`POST /products/${launch}/price_points.json`));
    assert.equal(out.annualOfferHandle, "launch-annual-49000");
    assert.deepEqual(
      sim.offers().map((o) => [o.id, o.handle, o.pricePointId, o.archivedAt]),
      [[out.annualOfferId, "launch-annual-49000", annual, null]],
    );
    const codes = sim.reasonCodes();
    assert.deepEqual(codes.map((r) => [r.code, r.position]).sort(), [
      ["missing_feature", 2],
      ["too_expensive", 1],
    ]);
    assert.deepEqual(out.reasonCodeIds, Object.fromEntries(codes.map((r) => [r.code, r.id])));
    assert.deepEqual(
      sim.metafields().map((m) => [m.resourceType, m.name]),
      [["subscriptions", "Signup channel"]],
    );
    assert.equal(out.webhooksEnabled, true);
    assert.deepEqual(
      sim.endpoints().map((e) => ({ id: e.id, url: e.url, events: [...e.events].sort() })),
      [{ id: out.receiverEndpointId, url: RECEIVER, events: RECEIVER_EVENTS }],
    );
    assert.deepEqual(out.receiverEvents, RECEIVER_EVENTS);
    assert.deepEqual(
      (out.migrated as { product: string }[]).map((m) => m.product),
      ["launch", "launch"],
    );
    assert.equal(out.replayedWebhooks, failed.length);
    assert.equal(out.replayBatches, 2);
    assert.deepEqual(
      [...sim.replayQueue].sort((a, b) => a - b),
      failed,
    );
    for (const id of subs) assert.equal(sim.getSubscription(id)?.productId, launch);
    await keepState();
  });

  it("a second up and a refresh change nothing", async () => {
    const before = mutations(sim.requests).length;
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    await s.run(["refresh", "--yes", "--skip-preview"]);
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    assert.equal(mutations(sim.requests).length, before);
  });

  it("the same program on a second site: the same handles, codes and names, that site's own ids", async () => {
    const c = await installedConsumer();
    const other = await startSimulator({ apiKey: API_KEY, nonPrimaryCurrencies: ["EUR", "GBP"] });
    // Years of web-UI work before: the second site's ids run ahead of the first's.
    other.addProductFamily({ handle: "legacy", name: "Legacy" });
    other.addProduct({
      handle: "legacy-basic",
      familyHandle: "legacy",
      pricePoints: [{ handle: "legacy-annual" }, { handle: "legacy-biennial" }, { handle: "legacy-triennial" }],
    });
    for (const handle of ["legacy-monthly", "legacy-annual"]) other.addOffer({ handle, productHandle: "legacy-basic" });
    for (const [i, code] of ["moved_away", "closed_business", "switched_provider"].entries())
      other.addReasonCode({ code, description: code.replace("_", " "), position: 9 + i });
    other.addMetafield({ resourceType: "subscriptions", name: "Account manager" });
    const second = await ExampleStack.create(c, "environment-bootstrap", "bootstrap-second-site");
    try {
      await second.config("billing:baseUrl", other.url);
      await second.config("billing:apiKey", API_KEY, true);
      await second.config("bootstrap:webhookReceiver", RECEIVER);
      await second.config("bootstrap:subscriptions", "[]");
      await second.config("bootstrap:currencyPrices", JSON.stringify({ EUR: 45 }));
      await second.run(["up", "--yes", "--skip-preview"]);
      const [a, b] = [await s.stackOutputs(), await second.stackOutputs()];
      const keys = (o: Record<string, unknown>) => ({
        codes: Object.keys(o.reasonCodeIds as object).sort(),
        offer: o.annualOfferHandle,
        currencyPrices: o.annualCurrencyPrices,
        events: o.receiverEvents,
      });
      assert.deepEqual(keys(b), keys(a));
      assert.deepEqual(
        other
          .reasonCodes()
          .map((r) => r.code)
          .sort(),
        ["closed_business", "missing_feature", "moved_away", "switched_provider", "too_expensive"],
      );
      assert.ok(other.metafields().some((m) => m.name === "Signup channel"));
      for (const id of ["familyId", "launchProductId", "annualPricePointId", "annualOfferId", "signupChannelFieldId"])
        assert.notEqual(b[id], a[id], `${id} is the second site's own`);
      for (const code of Object.keys(a.reasonCodeIds as object))
        assert.notEqual((b.reasonCodeIds as Record<string, number>)[code], (a.reasonCodeIds as Record<string, number>)[code], code);
      await second.run(["destroy", "--yes", "--skip-preview"]);
    } finally {
      await second.dispose();
      await other.close();
    }
  });

  it("a price change previews as the service applies it, and applies in the documented order; subscriptions keep their price point", async () => {
    const out = await s.stackOutputs();
    const launch = out.launchProductId as number;
    const oldAnnual = out.annualPricePointId as number;
    const oldDefault = out.launchDefaultPricePointId as number;
    const before = subs.map((id) => sim.getSubscription(id)?.pricePointId);
    sim.reset();
    await s.config("bootstrap:launchPriceInCents", "5900");
    const preview = await s.run(["preview", "--diff"]);
    const text = preview.stdout + preview.stderr;
    assert.match(text, /\$49\.00 → \$59\.00/);
    assert.match(text, /new default price point.*existing subscriptions keep theirs/);
    // The product updates in place, its annual price point is replaced, and the migrations onto it stay as they are.
    assert.match(text, /~ pulumi-nodejs:dynamic\/billing:Product: \(update\)/);
    assert.match(text, /\+-pulumi-nodejs:dynamic\/billing:ProductPricePoint: \(replace\)/);
    assert.doesNotMatch(text, /SubscriptionMigration: \(replace\)/);
    assert.deepEqual(mutations(sim.requests), [], "preview sends nothing");
    sim.reset();
    await s.run(["up", "--yes", "--skip-preview"]);
    const after = await s.stackOutputs();
    const newAnnual = after.annualPricePointId as number;
    assert.notEqual(newAnnual, oldAnnual);
    assert.notEqual(after.launchDefaultPricePointId, oldDefault);
    assert.deepEqual(
      mutations(sim.requests).map((r) => `${r.method} ${r.path}`),
      [
        `PUT /products/${launch}.json`, // the product's pricing: the service makes a new default price point
        `PUT /products/${launch}/price_points/${oldAnnual}.json`, // the annual one's handle freed
        `POST /products/${launch}/price_points.json`, // its replacement
        `POST /product_price_points/${newAnnual}/currency_prices.json`, // with its euro price
        `DELETE /products/${launch}/price_points/${oldAnnual}.json`, // the old one archived
        "POST /offers.json", // the offer of the new price (its handle names it), created first
        `PUT /offers/${out.annualOfferId}/archive.json`, // then the old one archived: the service cannot change an offer
      ],
    );
    assert.deepEqual(
      subs.map((id) => sim.getSubscription(id)?.pricePointId),
      before,
    );
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    await keepState();
  });

  it("bumping the replay trigger replays again; destroy unsubscribes the receiver and archives the product, and says what stays", async () => {
    await s.config("bootstrap:replayRound", "2");
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.equal(sim.replayQueue.length, failed.length * 2);
    const before = mutations(sim.requests).length;
    const outputs = await s.stackOutputs();
    const launch = outputs.launchProductId as number;
    await keepState();
    const res = await s.run(["destroy", "--yes", "--skip-preview"]);
    const [receiver] = sim.endpoints();
    assert.deepEqual(
      mutations(sim.requests)
        .slice(before)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
      // The annual price point goes with its product (deletedWith): archiving the product archives both.
      [
        `DELETE /products/${launch}.json`,
        `PUT /offers/${outputs.annualOfferId}/archive.json`,
        ...Object.values(outputs.reasonCodeIds as Record<string, number>).map((id) => `DELETE /reason_codes/${id}.json`),
        "DELETE /subscriptions/metafields.json", // the field held no data, so no deleteData was needed
        `PUT /endpoints/${receiver.id}.json`,
      ].sort(),
    );
    const said = res.stdout + res.stderr;
    assert.match(said, /archived product `launch`/);
    assert.match(said, /family `plans` .*stays at the service/);
    assert.deepEqual(
      sim.endpoints().map(({ url, events }) => ({ url, events })),
      [{ url: RECEIVER, events: [] }],
      "still listed, subscribed to nothing",
    );
  });

  // The state is read while it holds the resources (after each step above that changed them), not only
  // after destroy has emptied it: a key written into a resource's outputs is gone by then.
  it("no credential in state (with every resource in it, at each step) or CLI output", async () => {
    states.push(await s.exportState());
    assert.equal(states.length, 4, "a state after up, after the price change, before and after destroy");
    for (const [i, state] of states.slice(0, 3).entries()) {
      const { deployment } = JSON.parse(state) as { deployment: { resources?: { type: string; outputs?: object }[] } };
      const billing = (deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/billing:"));
      assert.deepEqual(
        [...new Set(billing.map((r) => r.type.split(":").pop()))].sort(),
        [
          "CustomField",
          "Offer",
          "Product",
          "ProductFamily",
          "ProductPricePoint",
          "ReasonCode",
          "SubscriptionMigration",
          "WebhookEndpoint",
          "WebhookReplay",
          "WebhookSettings",
        ],
        `state ${i} holds every kind of the program`,
      );
      assert.ok(
        billing.every((r) => typeof (r.outputs as { __provider?: unknown })?.__provider === "string"),
        `state ${i}: every resource has its outputs and __provider`,
      );
      assert.ok(!state.includes(API_KEY), `the API key is in state ${i}`);
    }
    assert.ok(!states[3].includes(API_KEY), "the API key is in the state after destroy");
    assert.ok(!s.outputs.join("\n").includes(API_KEY), "the API key is in the CLI's output");
  });
});
