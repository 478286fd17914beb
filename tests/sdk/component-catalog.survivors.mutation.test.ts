import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { BillingClient, CatalogOutcomeUnknownError, type Component, type ComponentInput } from "../../sdk";
import { editingProxy } from "../provider/support";
import { KEY, refusedWith, requestLog, site } from "./helpers";

// sdk/catalog/components.ts, component-results.ts and component-inputs.ts through BillingClient against the simulator:
// the mutation run left unchecked the refusals' words, that reads are repeated after a 5xx, the archived filter of a
// list, a 0 reference reading as none, the create read-back's account of what it saw, and the update read-back that
// ignores fields the update did not set. The module-level ones (the kind names, REPORTED) are in
// component-results-fresh.mutation.test.ts, which loads the SDK afresh.

const METERED = {
  kind: "metered",
  handle: "sms",
  name: "SMS",
  unitName: "message",
  pricingScheme: "per_unit",
  prices: [{ startingQuantity: 1, unitPrice: 1 }],
} satisfies ComponentInput;

async function families(opts: { maxRetries?: number } = {}) {
  const s = await site({}, { maxRetries: opts.maxRetries ?? 0 });
  s.sim.addProductFamily({ id: 1, handle: "one" });
  s.sim.addProductFamily({ id: 2, handle: "two" });
  return s;
}

describe("refusals name the operation and the property, before anything is sent", () => {
  it("a handle lookup with an empty handle", async () => {
    const { sim, billing } = await families();
    const rule = "a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_'";
    expect(await refusedWith(billing.findComponentByHandle(""))).toStrictEqual({
      message: `invalid component handle: handle: must not be empty: a handle is ${rule}; handle: must be ${rule}, got ""`,
      problems: [
        { property: "handle", message: `must not be empty: a handle is ${rule}` },
        { property: "handle", message: `must be ${rule}, got ""` },
      ],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("a family's list with family id 0", async () => {
    const { sim, billing } = await families();
    expect(await refusedWith(billing.listComponents({ familyId: 0 }))).toStrictEqual({
      message: "invalid component list: familyId: must be a positive integer id, got 0",
      problems: [{ property: "familyId", message: "must be a positive integer id, got 0" }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("a create with family id 0 and a token that is not a string: both problems beside a valid component", async () => {
    const { sim, billing } = await families();
    const token = "must be a non-empty string (the token of the create being resumed)";
    expect(await refusedWith(billing.createComponent(0, METERED, { uniquenessToken: 5 as unknown as string }))).toStrictEqual({
      message: `invalid component: familyId: must be a positive integer id, got 0; uniquenessToken: ${token}`,
      problems: [
        { property: "familyId", message: "must be a positive integer id, got 0" },
        { property: "uniquenessToken", message: token },
      ],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("a create of something that is not an object says what a component is, not which kinds there are", async () => {
    const { sim, billing } = await families();
    const message = "must be a component object { kind, handle, name, … }";
    for (const v of [null, 5, "metered"])
      expect(await refusedWith(billing.createComponent(1, v as never))).toStrictEqual({
        message: `invalid component: (input): ${message}`,
        problems: [{ property: "(input)", message }],
      });
    expect(sim.requests).toStrictEqual([]);
  });

  it("an update with a name that is not a string", async () => {
    const { sim, billing } = await families();
    const c = sim.addComponent({ familyId: 1, kind: "metered", handle: "sms", name: "SMS" });
    expect(await refusedWith(billing.updateComponent(1, c.id, { name: 5 as unknown as string }))).toStrictEqual({
      message: "invalid component update: name: must be a name (a string), got 5",
      problems: [{ property: "name", message: "must be a name (a string), got 5" }],
    });
    expect(sim.requests).toStrictEqual([]);
  });
});

describe("reads are repeated after a 500, as a read may be", () => {
  it.each<[string, string, (b: Awaited<ReturnType<typeof families>>["billing"], id: number) => Promise<unknown>]>([
    ["readComponent", "/product_families/1/components/30001.json", (b, id) => b.readComponent(1, id)],
    ["findComponentByHandle", "/components/lookup.json", (b) => b.findComponentByHandle("sms")],
    ["listComponents", "/components.json", (b) => b.listComponents()],
  ])("%s", async (_, path, op) => {
    const { sim, billing } = await families({ maxRetries: 1 });
    const c = sim.addComponent({ id: 30001, familyId: 1, kind: "metered", handle: "sms", name: "SMS" });
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path } });
    const got = (await op(billing, c.id)) as Component | Component[];
    expect((Array.isArray(got) ? got : [got]).map((x) => [x.id, x.handle])).toStrictEqual([[30001, "sms"]]);
    expect(requestLog(sim)).toStrictEqual([`GET ${path} 500`, `GET ${path} 200`]);
  });
});

/**
 * A socket in front of the simulator that asks every list for archived components too: the answer a service that
 * ignored the missing include_archived would give, written by the simulator itself.
 */
async function archivedAlwaysProxy(simulatorUrl: string): Promise<string> {
  const target = new URL(simulatorUrl);
  const server = createServer((req, res) => {
    const url = req.url?.startsWith("/components.json?") ? `${req.url}&include_archived=true` : req.url;
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  onTestFinished(() => new Promise<void>((closed) => server.close(() => closed())));
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("a list leaves out an archived component the service sent anyway, unless includeArchived", () => {
  it.each([
    [false, [30001]],
    [true, [30001, 30002]],
  ])("includeArchived %s: components %j", async (includeArchived, ids) => {
    const { sim } = await families();
    sim.addComponent({ id: 30001, familyId: 1, kind: "metered", handle: "sms", name: "SMS" });
    sim.addComponent({ id: 30002, familyId: 1, kind: "on_off", handle: "support", name: "Support", archived: true });
    const billing = new BillingClient({ baseUrl: await archivedAlwaysProxy(sim.url), apiKey: KEY, maxRetries: 0 });
    onTestFinished(() => billing.close());
    const got = await billing.listComponents({ includeArchived });
    expect(got.map((c) => [c.id, c.archivedAt === undefined])).toStrictEqual(ids.map((id) => [id, id === 30001]));
    expect(sim.requests.map((r) => [r.path, r.query.include_archived])).toStrictEqual([["/components.json", "true"]]);
  });
});

describe("a reference of 0 (the vendor's placeholder) is no reference", () => {
  it("family, default price point and billing metric ids of 0 read as absent", async () => {
    const { sim } = await families();
    sim.addComponent({ id: 30001, familyId: 1, kind: "metered", handle: "sms", name: "SMS" });
    const url = await editingProxy(sim.url, (_m, _p, body) => {
      const c = body.component as Record<string, unknown>;
      Object.assign(c, { product_family_id: 0, default_price_point_id: 0, event_based_billing_metric_id: 0 });
    });
    const billing = new BillingClient({ baseUrl: url, apiKey: KEY, maxRetries: 0 });
    onTestFinished(() => billing.close());
    const got = await billing.readComponent(1, 30001);
    expect([got.productFamilyId, got.defaultPricePointId, got.eventBasedBillingMetricId]).toStrictEqual([undefined, undefined, undefined]);
  });

  it("positive ids are kept", async () => {
    const { sim, billing } = await families();
    sim.addComponent({ id: 30001, familyId: 2, kind: "event_based", handle: "calls", name: "Calls", eventBasedBillingMetricId: 9 });
    const got = await billing.readComponent(2, 30001);
    expect([got.productFamilyId, got.defaultPricePointId, got.eventBasedBillingMetricId]).toStrictEqual([2, 40001, 9]);
  });
});

describe("a create whose answer was lost says what its read-back by handle saw", () => {
  const tail = (h: string, seen: string) =>
    `creating the component "${h}" may or may not have been applied: 1 attempt(s) failed ambiguously (last: POST ` +
    `/product_families/1/metered_components.json: read ECONNRESET (ECONNRESET)) and no live component with handle "${h}" is ` +
    `found (${seen}); it may or may not have been created. Resuming reads it back by handle first, then creates it with ` +
    "the same uniqueness_token (tok-1), never a new one";

  it.each<[string, { familyId: number; kind: "on_off" | "metered"; name: string }, string, string]>([
    [
      "another kind",
      { familyId: 1, kind: "on_off", name: "SMS" },
      "SMS",
      'a component this create did not make (id 30001 holds kind "on_off" where this create asked "metered")',
    ],
    [
      "another name",
      { familyId: 1, kind: "metered", name: "Minutes" },
      "Mins",
      'a component this create did not make (id 30001 holds name "Minutes" where this create asked "Mins")',
    ],
    ["another family", { familyId: 2, kind: "metered", name: "SMS" }, "SMS", "component 30001 in another family (2)"],
  ])("%s", async (_, held, name, seen) => {
    const { sim, billing } = await families();
    sim.addComponent({ id: 30001, handle: "sms", ...held });
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await billing.createComponent(1, { ...METERED, name }, { uniquenessToken: "tok-1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(tail("sms", seen));
    expect(requestLog(sim)).toStrictEqual(["POST /product_families/1/metered_components.json 0", "GET /components/lookup.json 200"]);
  });
});

describe("an update whose answer was lost is confirmed by the fields it set, whatever the others hold", () => {
  it("a name change read back as applied is the result", async () => {
    const { sim, billing } = await families();
    sim.addComponent({ id: 30001, familyId: 1, kind: "on_off", handle: "support", name: "Support", description: "Help" });
    sim.injectFault({ kind: "reset", times: 1, applyAfterHandling: true, match: { method: "PUT" } });
    const got = await billing.updateComponent(1, 30001, { name: "Care" });
    expect([got.id, got.handle, got.name, got.description]).toStrictEqual([30001, "support", "Care", "Help"]);
    expect(requestLog(sim)).toStrictEqual(["PUT /components/30001.json 0", "GET /product_families/1/components/30001.json 200"]);
    expect(sim.requests[0].body).toStrictEqual({ component: { name: "Care" } });
  });
});
