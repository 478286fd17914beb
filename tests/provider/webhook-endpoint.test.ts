import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { webhookEndpointProvider } from "../../provider";
import { type FaultSpec, type Simulator, startSimulator } from "../../simulator";
import { captureOutput, configured, configureRequest, KEY, UNKNOWN } from "./support";

const LIST = "/endpoints.json";
const ONE = /^\/endpoints\/\d+\.json$/;
const HOOK = "https://hooks.example.com/billing";
/** The key of the `eu` entry of billing:sites, another simulator than the top-level one. */
const EU_KEY = "sk_live_EU_SITE_SECRET_7373";
/** Declared out of order, as a user might: the service and the outputs see them sorted. */
const EVENTS = ["subscription_state_change", "payment_failure"];
const SORTED = ["payment_failure", "subscription_state_change"];

const postsOf = (sim: Simulator) => sim.requests.filter((r) => r.method === "POST" && r.path === LIST);
const putsOf = (sim: Simulator) => sim.requests.filter((r) => r.method === "PUT" && ONE.test(r.path));
const putBody = (url: string, events: string[]) => ({ endpoint: { url, webhook_subscriptions: events } });

describe("WebhookEndpoint provider", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  async function setup(extra: Record<string, string> = {}) {
    const c = await configured(webhookEndpointProvider, extra);
    sim = c.sim;
    return c.provider;
  }

  /** An endpoint created through the provider, the simulator's log emptied afterwards. */
  async function created(inputs: Record<string, unknown> = { url: HOOK, events: EVENTS }) {
    const p = await setup();
    const { id, outs } = await p.create(inputs);
    sim.reset();
    return { p, id, outs };
  }

  describe("check", () => {
    const tooLong = `${HOOK}/${"a".repeat(2048 - HOOK.length)}`; // 2049 characters
    it.each([
      [{ events: EVENTS }, "url", /is required: an absolute https URL/],
      [{ url: 42, events: EVENTS }, "url", /must be an absolute https URL such as https:\/\/example\.com\/webhooks, got 42/],
      [{ url: "/billing/webhooks", events: EVENTS }, "url", /must be an absolute URL such as https:\/\/example\.com\/webhooks/],
      [{ url: "hooks.example.com/billing", events: EVENTS }, "url", /must be an absolute URL/],
      [
        { url: "http://hooks.example.com/billing", events: EVENTS },
        "url",
        /must use https \(http only for localhost, 127\.0\.0\.1 or \[::1\]\), got http for "hooks\.example\.com"/,
      ],
      [{ url: tooLong, events: EVENTS }, "url", /must be at most 2048 characters, got 2049/],
      [
        { url: HOOK },
        "events",
        /must be an array of webhook event keys such as \["payment_success"\], got undefined.*the accepted events are billing_date_change, /,
      ],
      [{ url: HOOK, events: [] }, "events", /must name at least one webhook event.*the accepted events are billing_date_change, /],
      [{ url: HOOK, events: "payment_failure" }, "events", /must be an array of webhook event keys.*got "payment_failure"/],
      [
        { url: HOOK, events: ["subscription_state_change", "payment_failur"] },
        "events.1",
        /"payment_failur" is not a webhook event key; did you mean "payment_failure"\?.*the accepted events are billing_date_change, /,
      ],
      [{ url: HOOK, events: EVENTS, colour: "red" }, "colour", /^is not an input of WebhookEndpoint \(accepted: url, events, site\)$/],
      [
        { url: HOOK, events: EVENTS, site: "" },
        "site",
        /must be the name of an entry of the stack config billing:sites \(a non-empty string\)/,
      ],
      [{ url: HOOK, events: EVENTS, site: "mars" }, "site", /site "mars" is not an entry of the stack config billing:sites/],
    ])("%o fails on %s alone, saying what is accepted, and sends nothing", async (news, property, reason) => {
      const p = await setup();
      const { failures } = await p.check!({}, news);
      expect(failures?.map((f) => f.property)).toEqual([property]);
      expect(failures![0].reason).toMatch(reason);
      expect(sim.requests).toHaveLength(0);
    });

    it.each([
      ["http to localhost", { url: "http://localhost:8080/hooks", events: EVENTS }],
      ["http to 127.0.0.1", { url: "http://127.0.0.1/hooks", events: EVENTS }],
      ["http to [::1]", { url: "http://[::1]:9000/hooks", events: EVENTS }],
      ["a url of exactly 2048 characters", { url: `${HOOK}/${"a".repeat(2047 - HOOK.length)}`, events: EVENTS }],
      ["events with duplicates, out of order", { url: HOOK, events: ["refund_success", "payment_failure", "refund_success"] }],
      ["an unknown url", { url: UNKNOWN, events: EVENTS }],
      ["unknown events", { url: HOOK, events: UNKNOWN }],
      ["an unknown event among known ones", { url: HOOK, events: [UNKNOWN, "payment_failure"] }],
      ["an unknown site", { url: HOOK, events: EVENTS, site: UNKNOWN }],
      ["everything unknown", { url: UNKNOWN, events: UNKNOWN, site: UNKNOWN }],
    ])("%s passes, sending nothing", async (_, news) => {
      const p = await setup();
      expect((await p.check!({}, news)).failures).toEqual([]);
      expect(sim.requests).toHaveLength(0);
    });
  });

  describe("create", () => {
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

  describe("diff", () => {
    it.each([
      ["the same events in another order", { url: HOOK, events: [...SORTED] }, { changes: false }],
      ["the same events with duplicates", { url: HOOK, events: [...EVENTS, ...EVENTS, "payment_failure"] }, { changes: false }],
      ["a changed url", { url: "https://hooks.example.com/v2", events: EVENTS }, { changes: true, replaces: [] }],
      ["an added event", { url: HOOK, events: [...EVENTS, "payment_success"] }, { changes: true, replaces: [] }],
      ["a removed event", { url: HOOK, events: ["payment_failure"] }, { changes: true, replaces: [] }],
      ["a changed site", { url: HOOK, events: EVENTS, site: "eu" }, { changes: true, replaces: ["site"] }],
      ["an unknown url", { url: UNKNOWN, events: EVENTS }, { changes: true, replaces: [] }],
      ["unknown events", { url: HOOK, events: UNKNOWN }, { changes: true, replaces: [] }],
      ["an unknown event among known ones", { url: HOOK, events: ["payment_failure", UNKNOWN] }, { changes: true, replaces: [] }],
      ["an unknown site", { url: HOOK, events: EVENTS, site: UNKNOWN }, { changes: true }],
    ])("%s: %o, sending nothing", async (_, news, expected) => {
      const { p, id, outs } = await created();
      expect(await p.diff!(id, outs, news)).toMatchObject(expected);
      expect(sim.requests).toHaveLength(0);
    });
  });

  describe("update", () => {
    it("PUTs the url and the complete event list; the service holds the new list", async () => {
      const { p, id, outs } = await created();
      const url = "https://hooks.example.com/v2";
      const updated = await p.update!(id, outs, { url, events: ["refund_success", "payment_failure", "refund_success"] });

      expect(putsOf(sim).map((r) => [r.path, r.body])).toEqual([
        [`/endpoints/${id}.json`, putBody(url, ["payment_failure", "refund_success"])],
      ]);
      expect(updated.outs).toEqual({ endpointId: Number(id), url, events: ["payment_failure", "refund_success"], status: "enabled" });
      expect(sim.endpoints()).toEqual([{ id: Number(id), url, events: ["payment_failure", "refund_success"], status: "enabled" }]);
      expect(postsOf(sim)).toHaveLength(0);
    });

    it("the same events in another order send nothing", async () => {
      const { p, id, outs } = await created();
      const updated = await p.update!(id, outs, { url: HOOK, events: [...SORTED, "payment_failure"] });
      expect(updated.outs).toMatchObject({ endpointId: Number(id), url: HOOK, events: SORTED });
      expect(sim.requests).toHaveLength(0);
    });

    it("a PUT to an endpoint removed on the service fails, telling to run `pulumi refresh`; nothing is created", async () => {
      const { p, id, outs } = await created();
      sim.removeEndpoint(Number(id));
      const err = await p.update!(id, outs, { url: HOOK, events: ["payment_success"] }).catch((e) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err.message).toMatch(new RegExp(`webhook endpoint ${id} no longer exists on the service`));
      expect(err.message).toMatch(/run `pulumi refresh`/);
      expect(putsOf(sim).map((r) => r.status)).toEqual([404]);
      expect(postsOf(sim)).toHaveLength(0);
      expect(sim.endpoints()).toEqual([]);
    });
  });

  describe("read (refresh)", () => {
    it.each([
      [
        "events",
        { events: ["refund_success", "payment_success", "refund_success"] },
        { url: HOOK, events: ["payment_success", "refund_success"] },
      ],
      ["url", { url: "https://moved.example.com/hooks" }, { url: "https://moved.example.com/hooks", events: SORTED }],
      ["status", { status: "disabled" }, { url: HOOK, events: SORTED, status: "disabled" }],
    ])("%s changed on the service come back in the props", async (_, change, expected) => {
      const { p, id, outs } = await created();
      sim.updateEndpoint(Number(id), change);
      const read = await p.read!(id, outs);
      expect(read.id).toBe(id);
      expect(read.props).toMatchObject({ endpointId: Number(id), ...expected });
      expect(sim.requests.every((r) => r.method === "GET")).toBe(true);
    });

    it("an endpoint removed from the list comes back with an empty id, so the engine drops it", async () => {
      const { p, id, outs } = await created();
      sim.addEndpoint({ url: "https://other.example.com/hooks", events: ["payment_success"] });
      sim.removeEndpoint(Number(id));
      expect(await p.read!(id, outs)).toEqual({ id: "", props: {} });
    });
  });

  describe("delete", () => {
    it("PUTs an empty event list with the recorded url; the endpoint stays, subscribed to nothing", async () => {
      const { p, id, outs } = await created();
      const { error, text } = await captureOutput(() => p.delete!(id, outs));
      expect(error).toBeUndefined();
      expect(putsOf(sim).map((r) => [r.path, r.body])).toEqual([[`/endpoints/${id}.json`, putBody(HOOK, [])]]);
      expect(sim.endpoints()).toEqual([{ id: Number(id), url: HOOK, events: [], status: "enabled" }]);
      expect(text).toMatch(/unsubscribed from every event/);
    });

    it("an endpoint already gone is not an error", async () => {
      const { p, id, outs } = await created();
      sim.removeEndpoint(Number(id));
      const { error } = await captureOutput(() => p.delete!(id, outs));
      expect(error).toBeUndefined();
      expect(putsOf(sim).map((r) => r.status)).toEqual([404]);
      expect(sim.endpoints()).toEqual([]);
    });
  });

  describe("a create whose outcome is unknown", () => {
    /** The list before the POST goes through (a harmless 0 ms delay takes it); every read-back after the POST fails. */
    const readBackFails = (s: Simulator) => {
      s.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET", path: LIST } });
      s.injectFault({ kind: "reset", match: { method: "GET", path: LIST } });
    };

    it.each([
      ["reset after the service applied it", { kind: "reset", applyAfterHandling: true }, 1],
      ["502 after the service applied it", { kind: "status", status: 502, applyAfterHandling: true }, 1],
      ["reset before the service saw it", { kind: "reset" }, 0],
    ] as [string, FaultSpec, number][])(
      "%s: a partial failure with the token; the next update finishes it with exactly one endpoint",
      async (_, fault, landed) => {
        const p = await setup();
        sim.injectFault({ ...fault, times: 1, match: { method: "POST", path: LIST } });
        readBackFails(sim);
        const inputs = { url: HOOK, events: EVENTS };

        const { error: err } = await captureOutput(() => p.create({ ...inputs, __provider: "TEXT" }));
        expect(sim.endpoints()).toHaveLength(landed);
        const [post] = postsOf(sim);
        expect(post.uniquenessToken).toEqual(expect.any(String));
        const e = err as Error & { id: string; properties: Record<string, unknown> };
        expect(e).toBeInstanceOf(Error);
        expect(e.message).toMatch(/may or may not have been applied/);
        expect(e.message).toMatch(/the next `pulumi up` looks for the endpoint again/);
        expect(e.id).toEqual(expect.any(String));
        expect(e.id).not.toBe("");
        expect(e.properties).toEqual({ url: HOOK, events: SORTED, pendingToken: post.uniquenessToken, __provider: "TEXT" });

        sim.clearFaults();
        // Unfinished work: the engine is told to call update even with the same inputs.
        expect(await p.diff!(e.id, e.properties, inputs)).toMatchObject({ changes: true, replaces: [] });
        const { result: done, error } = await captureOutput(() => p.update!(e.id, e.properties, { ...inputs, __provider: "TEXT" }));
        expect(error).toBeUndefined();

        const [endpoint] = sim.endpoints();
        expect(sim.endpoints()).toEqual([{ id: endpoint.id, url: HOOK, events: SORTED, status: "enabled" }]);
        expect(done!.outs).toEqual({ endpointId: endpoint.id, url: HOOK, events: SORTED, status: "enabled" });
        // Sent again only when it had not landed, and then with the same token.
        const posts = postsOf(sim);
        expect(posts).toHaveLength(landed === 1 ? 1 : 2);
        expect(new Set(posts.map((r) => r.uniquenessToken))).toEqual(new Set([post.uniquenessToken]));

        // The record is finished: no more changes, and delete reaches the endpoint although the id is the pending one.
        expect(await p.diff!(e.id, done!.outs, inputs)).toMatchObject({ changes: false });
        sim.reset();
        expect((await captureOutput(() => p.delete!(e.id, done!.outs))).error).toBeUndefined();
        expect(putsOf(sim).map((r) => [r.path, r.body])).toEqual([[`/endpoints/${endpoint.id}.json`, putBody(HOOK, [])]]);
      },
    );

    // Found by this test: a resume once looked for the endpoint by the NEW url and re-sent the old token with a new body (409
    // forever, and a second endpoint once the token expired); it resumes with the recorded body, then applies the change.
    it("inputs changed before the resume (another url): the endpoint the first create made is found and moved, no second one", async () => {
      const p = await setup({ "billing:migrationSettleSeconds": "1" });
      sim.injectFault({ kind: "reset", applyAfterHandling: true, times: 1, match: { method: "POST", path: LIST } });
      readBackFails(sim);
      const { error } = await captureOutput(() => p.create({ url: HOOK, events: EVENTS }));
      const e = error as Error & { id: string; properties: Record<string, unknown> };
      expect(e.properties).toMatchObject({ url: HOOK, pendingToken: expect.any(String) });
      expect(sim.endpoints()).toHaveLength(1);
      sim.clearFaults();

      const moved = "https://hooks.example.com/v2";
      const { result, error: failed } = await captureOutput(() => p.update!(e.id, e.properties, { url: moved, events: EVENTS }));
      expect(failed).toBeUndefined();
      const [endpoint] = sim.endpoints();
      expect(sim.endpoints()).toEqual([{ id: endpoint.id, url: moved, events: SORTED, status: "enabled" }]);
      expect(result!.outs).toEqual({ endpointId: endpoint.id, url: moved, events: SORTED, status: "enabled" });
    });
  });

  it("no credential appears in any output, failure, error or printed text", async () => {
    // The key is also in billing:sites, which a failure on `site` describes.
    const p = await setup({ "billing:sites": JSON.stringify({ eu: { baseUrl: "http://127.0.0.1:9", apiKey: KEY } }) });
    const basic = Buffer.from(`${KEY}:x`).toString("base64");
    const seen: string[] = [];
    const run = async (fn: () => Promise<unknown>) => {
      const { result, error, text } = await captureOutput(fn);
      seen.push(text, JSON.stringify(result ?? null), inspect(result, { depth: 20 }));
      if (error !== undefined) seen.push(JSON.stringify(error), inspect(error, { depth: 20 }), String((error as Error).stack));
      return { result, error };
    };

    await run(() => p.check!({}, { url: "http://hooks.example.com/x", events: ["payment_failur"], colour: 1, site: "mars" }));
    sim.addEndpoint({ url: "https://adopted.example.com/h", events: ["payment_success"] });
    const adopted = (await run(() => p.create({ url: "https://adopted.example.com/h", events: EVENTS }))).result as {
      id: string;
      outs: Record<string, unknown>;
    };
    const made = (await run(() => p.create({ url: HOOK, events: EVENTS }))).result as { id: string; outs: Record<string, unknown> };
    await run(() => p.diff!(made.id, made.outs, { url: HOOK, events: ["payment_success"] }));
    await run(() => p.update!(made.id, made.outs, { url: HOOK, events: ["payment_success"] }));
    sim.updateEndpoint(Number(made.id), { events: ["refund_success"] });
    await run(() => p.read!(made.id, made.outs));
    sim.removeEndpoint(Number(adopted.id));
    const gone = await run(() =>
      p.update!(adopted.id, adopted.outs, { url: "https://adopted.example.com/h", events: ["payment_success"] }),
    );
    await run(() => p.read!(adopted.id, adopted.outs));
    await run(() => p.delete!(adopted.id, adopted.outs));
    await run(() => p.delete!(made.id, made.outs));

    sim.injectFault({ kind: "reset", applyAfterHandling: true, times: 1, match: { method: "POST", path: LIST } });
    sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET", path: LIST } });
    sim.injectFault({ kind: "reset", match: { method: "GET", path: LIST } });
    const pending = await run(() => p.create({ url: "https://pending.example.com/h", events: EVENTS }));
    sim.clearFaults();
    const e = pending.error as { id: string; properties: Record<string, unknown> };
    await run(() => p.update!(e.id, e.properties, { url: "https://pending.example.com/h", events: EVENTS }));

    // Every kind of path was taken: failures, an adoption, a 404, retries of the read-back, a partial failure.
    expect(gone.error).toBeInstanceOf(Error);
    expect(pending.error).toBeInstanceOf(Error);
    const all = seen.join("\n");
    expect(all).toMatch(/site "mars" is not an entry of the stack config billing:sites \(entries: eu\)/);
    expect(all).toMatch(/adopted the existing endpoint/);
    expect(all).toMatch(/billing: GET \/endpoints\.json: .*waiting/);
    expect(all).toMatch(/may or may not have been applied/);
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(basic);
  });
});
