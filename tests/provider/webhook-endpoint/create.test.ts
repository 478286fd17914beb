import { describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../../simulator";
import { captureOutput, configureRequest, KEY } from "../support";
import { EU_KEY, EVENTS, endpointSite, HOOK, postsOf, putBody, putsOf, SORTED } from "./site";

/**
 * WebhookEndpoint create: a POST when the site has no endpoint with that url (the events sorted and distinct), else
 * the endpoint with that url adopted, its events PUT only when they differ, and said so; with a site, on that site
 * alone.
 */

describe("WebhookEndpoint create", () => {
  let sim: Simulator;
  const { setup } = endpointSite((started) => {
    sim = started;
  });

  it("POSTs when the site has no endpoint with that url: outputs sorted, distinct events; the id is the endpoint's", async () => {
    const p = await setup();
    const other = sim.addEndpoint({ url: "https://other.example.com/hooks", events: ["payment_success"] });
    const { id, outs } = await p.create({ url: HOOK, events: [...EVENTS, "payment_failure"] });

    const mine = sim.endpoints().filter((e) => e.url === HOOK);
    expect(mine).toEqual([{ id: mine[0].id, url: HOOK, events: SORTED, status: "enabled" }]);
    expect(mine[0].id).not.toBe(other.id);
    expect(id).toBe(String(mine[0].id));
    expect(outs).toEqual({ endpointId: mine[0].id, url: HOOK, events: SORTED, status: "enabled" });
    expect(sim.endpoints()).toHaveLength(2);

    const posts = postsOf(sim);
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toMatchObject(putBody(HOOK, SORTED));
    expect(posts[0].uniquenessToken).toEqual(expect.any(String));
    expect(putsOf(sim)).toHaveLength(0);
  });

  // Found by these tests: the whole inputs, `site` included, once reached the SDK's strict endpoint schema.
  // The eu site is another simulator with another key: a provider that ignored `site` would write to the
  // top-level one (or be refused by eu), and each variant sees where the endpoint landed.
  it.each(["a new endpoint", "an adopted one whose events differ", "an update"])(
    "with a site: %s is created / updated there",
    async (what) => {
      const p = await setup();
      const eu = await startSimulator({ apiKey: EU_KEY });
      try {
        await p.configure!(
          configureRequest({
            "billing:baseUrl": sim.url,
            "billing:apiKey": KEY,
            "billing:sites": JSON.stringify({ eu: { baseUrl: eu.url, apiKey: EU_KEY } }),
          }),
        );
        const inputs = { url: HOOK, events: EVENTS, site: "eu" };
        let outs: Record<string, unknown>;
        let id: string;
        if (what === "a new endpoint") {
          ({ id, outs } = await p.create(inputs));
        } else if (what === "an adopted one whose events differ") {
          // The top-level site holds an endpoint with that url too: only eu's may be adopted.
          sim.addEndpoint({ url: HOOK, events: ["payment_success"] });
          eu.addEndpoint({ url: "https://other.example.com/hooks", events: ["payment_success"] });
          eu.addEndpoint({ url: HOOK, events: ["payment_success"] });
          const adopted = await captureOutput(() => p.create(inputs));
          if (adopted.error) throw adopted.error;
          ({ id, outs } = adopted.result!);
        } else {
          sim.addEndpoint({ url: "https://other.example.com/hooks", events: ["payment_success"] });
          const held = eu.addEndpoint({ url: HOOK, events: ["payment_success"] });
          const recorded = { endpointId: held.id, url: HOOK, events: ["payment_success"], status: "enabled", site: "eu" };
          id = String(held.id);
          outs = (await p.update!(id, recorded, inputs)).outs;
        }
        const [mine] = eu.endpoints().filter((e) => e.url === HOOK);
        expect(mine).toMatchObject({ url: HOOK, events: SORTED });
        expect(id).toBe(String(mine.id));
        expect(outs).toMatchObject({ endpointId: mine.id, url: HOOK, events: SORTED, site: "eu" });
        expect(eu.endpoints().filter((e) => e.url === HOOK)).toHaveLength(1);
        // The top-level site was never asked anything, and what it held is untouched.
        expect(sim.requests).toEqual([]);
        expect(sim.endpoints().every((e) => e.events.length === 1 && e.events[0] === "payment_success")).toBe(true);
      } finally {
        await eu.close();
      }
    },
  );

  it.each([
    ["the declared events in another order", ["subscription_state_change", "payment_failure"], [], /already the declared ones/],
    [
      "other events",
      ["payment_success", "refund_failure"],
      [putBody(HOOK, SORTED)],
      /its events are now payment_failure, subscription_state_change/,
    ],
  ])("adopts an endpoint with the same url that has %s: no POST, PUTs %o, says so", async (_, held, puts, said) => {
    const p = await setup();
    sim.addEndpoint({ url: "https://other.example.com/hooks", events: ["payment_success"] });
    const seeded = sim.addEndpoint({ id: 7, url: HOOK, events: held });

    const { result, error, text } = await captureOutput(() => p.create({ url: HOOK, events: EVENTS }));
    expect(error).toBeUndefined();
    expect(result!.id).toBe(String(seeded.id));
    expect(result!.outs).toEqual({ endpointId: seeded.id, url: HOOK, events: SORTED, status: "enabled" });
    expect(text).toMatch(new RegExp(`adopted the existing endpoint ${seeded.id} of site ${new URL(sim.url).host} for ${HOOK}`));
    expect(text).toMatch(said);

    expect(postsOf(sim)).toHaveLength(0);
    expect(putsOf(sim).map((r) => [r.path, r.body])).toEqual(puts.map((b) => [`/endpoints/${seeded.id}.json`, b]));
    expect(sim.endpoints().filter((e) => e.url === HOOK)).toHaveLength(1);
    expect([...sim.endpoints().find((e) => e.id === seeded.id)!.events].sort()).toEqual(SORTED);
  });
});
