import assert from "node:assert/strict";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer, mutations } from "./support";

const KEY = "sk_e2e_offers_7c31d0";

// examples/site-config's offers with the real CLI on a local file backend: created once from references by handle;
// a change under the same handle refused at preview, naming the field, before anything is sent; a new handle
// replaces the offer, the new one created before the old one is archived; archived outside, refresh sees it and up
// unarchives it; destroy archives; no key in state or output.
describe("examples/site-config with the real CLI: an Offer", () => {
  let sim: Simulator;
  let s: ExampleStack;
  const offers = (v: object) => s.config("siteConfig:offers", JSON.stringify(v));
  const bundle = {
    handle: "launch-bundle",
    name: "Launch bundle",
    product: "handle:launch-pro",
    productPricePoint: "handle:launch-pro-annual",
    components: [{ component: "handle:seats", startingQuantity: 5 }],
    coupons: ["SPRING25"],
  };
  const steps = () => mutations(sim.requests).map((r) => `${r.method} ${r.path}`);
  const live = () => sim.offers().filter((o) => o.archivedAt === null);

  before(async () => {
    const c = await installedConsumer();
    sim = await startSimulator({ apiKey: KEY });
    // The catalog the offers name, made in the web UI.
    sim.addProductFamily({ handle: "plans" });
    sim.addProduct({
      handle: "launch-pro",
      familyHandle: "plans",
      priceInCents: 4900,
      interval: 1,
      intervalUnit: "month",
      pricePoints: [{ handle: "launch-pro-annual", priceInCents: 49000, interval: 12, intervalUnit: "month" }],
    });
    sim.addComponent({ kind: "quantity_based", handle: "seats", familyHandle: "plans", unitPrice: 10 });
    sim.addCoupon({ familyHandle: "plans", code: "SPRING25", percentage: 25 });
    s = await ExampleStack.create(c, "site-config", "offers");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", KEY, true);
    await offers({ launch: bundle });
  });

  after(async () => {
    await s?.dispose();
    await sim?.close();
  });

  it("preview sends nothing; up creates the offer once; a second up changes nothing", async () => {
    await s.run(["preview"]);
    assert.deepEqual(steps(), []);
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.deepEqual(
      live().map((o) => [o.handle, o.items.map((i) => i.startingQuantity), o.couponIds.length]),
      [["launch-bundle", [5], 1]],
    );
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    assert.deepEqual(steps(), ["POST /offers.json"]);
  });

  it("a change under the same handle is refused at preview, naming the field; nothing is sent", async () => {
    await offers({ launch: { ...bundle, components: [{ component: "handle:seats", startingQuantity: 6 }] } });
    const refused = await s.run(["preview"], { allowFailure: true });
    assert.match(refused.stdout + refused.stderr, /components changed, and the service has no update of an offer/);
    assert.match(refused.stdout + refused.stderr, /give the changed offer a new handle/);
    assert.deepEqual(steps(), ["POST /offers.json"]);
  });

  it("a new handle replaces it: the new offer created, then the old one archived", async () => {
    const [old] = live();
    await offers({ launch: { ...bundle, handle: "launch-bundle-2", components: [{ component: "handle:seats", startingQuantity: 6 }] } });
    const res = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(res.stdout, /1 replaced/);
    assert.deepEqual(steps().slice(1), ["POST /offers.json", `PUT /offers/${old?.id}/archive.json`]);
    assert.deepEqual(
      live().map((o) => [o.handle, o.items[0]?.startingQuantity]),
      [["launch-bundle-2", 6]],
    );
    const out = (await s.stackOutputs()).offers as Record<string, { id: number; handle: string }>;
    assert.deepEqual(out.launch, { id: live()[0]?.id, handle: "launch-bundle-2", signupPages: [] });
  });

  it("archived outside: refresh reads it, and up unarchives it", async () => {
    const [held] = live();
    await fetch(`${sim.url}/offers/${held?.id}/archive.json`, {
      method: "PUT",
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` },
    });
    await s.run(["refresh", "--yes", "--skip-preview"]);
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.deepEqual(
      live().map((o) => o.handle),
      ["launch-bundle-2"],
    );
    assert.equal(steps().at(-1), `PUT /offers/${held?.id}/unarchive.json`);
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  });

  it("destroy archives it", async () => {
    await s.run(["destroy", "--yes", "--skip-preview"]);
    assert.deepEqual(live(), []);
    assert.equal(sim.offers().length, 2);
  });

  it("no credential in state or CLI output; the key is stored encrypted", async () => {
    const state = await s.exportState();
    assert.ok(!state.includes(KEY), "state holds the key");
    assert.ok(!s.outputs.join("\n").includes(KEY), "CLI output holds the key");
    assert.ok(!(await s.stackConfigFile()).includes(KEY), "stack config holds the key in clear");
  });
});
