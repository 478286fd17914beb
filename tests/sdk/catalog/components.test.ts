import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { BillingClient, type Component } from "../../../sdk";
import { type Simulator, startSimulator } from "../../../simulator";
import { editingProxy } from "../../provider/support";
import { KEY, requestLog } from "../helpers";
import { siteWithUnnamedFamilies } from "./simulator-fixtures";

/**
 * Components (sdk/catalog/components.ts, component-results.ts) through BillingClient against the simulator: reads
 * repeated after a 500, a list's archived filter, a 0 reference read as none, the kind names an answer reads as, and
 * the read-back that confirms an update whose answer was lost by the fields it set. The kind names and the fields an
 * update compares are built when their modules load: those tests load the SDK afresh (vi.resetModules, then import).
 */

describe("reads are repeated after a 500, as a read may be", () => {
  it.each<[string, string, (b: Awaited<ReturnType<typeof siteWithUnnamedFamilies>>["billing"], id: number) => Promise<unknown>]>([
    ["readComponent", "/product_families/1/components/30001.json", (b, id) => b.readComponent(1, id)],
    ["findComponentByHandle", "/components/lookup.json", (b) => b.findComponentByHandle("sms")],
    ["listComponents", "/components.json", (b) => b.listComponents()],
  ])("%s", async (_, path, op) => {
    const { sim, billing } = await siteWithUnnamedFamilies({ maxRetries: 1 });
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
    const { sim } = await siteWithUnnamedFamilies();
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
    const { sim } = await siteWithUnnamedFamilies();
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
    const { sim, billing } = await siteWithUnnamedFamilies();
    sim.addComponent({ id: 30001, familyId: 2, kind: "event_based", handle: "calls", name: "Calls", eventBasedBillingMetricId: 9 });
    const got = await billing.readComponent(2, 30001);
    expect([got.productFamilyId, got.defaultPricePointId, got.eventBasedBillingMetricId]).toStrictEqual([2, 40001, 9]);
  });
});

describe("an update whose answer was lost is confirmed by the fields it set, whatever the others hold", () => {
  it("a name change read back as applied is the result", async () => {
    const { sim, billing } = await siteWithUnnamedFamilies();
    sim.addComponent({ id: 30001, familyId: 1, kind: "on_off", handle: "support", name: "Support", description: "Help" });
    sim.injectFault({ kind: "reset", times: 1, applyAfterHandling: true, match: { method: "PUT" } });
    const got = await billing.updateComponent(1, 30001, { name: "Care" });
    expect([got.id, got.handle, got.name, got.description]).toStrictEqual([30001, "support", "Care", "Help"]);
    expect(requestLog(sim)).toStrictEqual(["PUT /components/30001.json 0", "GET /product_families/1/components/30001.json 200"]);
    expect(sim.requests[0].body).toStrictEqual({ component: { name: "Care" } });
  });
});

async function freshClient() {
  const sim: Simulator = await startSimulator({ apiKey: KEY });
  const { BillingClient } = await import("../../../sdk");
  const billing = new BillingClient({ baseUrl: sim.url, apiKey: KEY, maxRetries: 0 });
  onTestFinished(() => billing.close().then(() => sim.close()));
  sim.addProductFamily({ id: 1, handle: "one" });
  return { sim, billing };
}

describe("a component's kind reads as the SDK names it", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each(["metered", "quantity_based", "on_off", "prepaid_usage", "event_based"] as const)("%s", async (kind) => {
    const { sim, billing } = await freshClient();
    sim.addComponent({
      id: 30001,
      familyId: 1,
      kind,
      handle: "c",
      name: "C",
      ...(kind === "event_based" ? { eventBasedBillingMetricId: 9 } : {}),
    });
    expect((await billing.readComponent(1, 30001)).kind).toBe(kind);
    expect((await billing.listComponents()).map((c) => c.kind)).toStrictEqual([kind]);
  });
});

describe("an update whose answer was lost is confirmed by reading back the fields it set", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each([
    ["name", { name: "Care" }],
    ["description", { description: "Help desk" }],
    ["handle", { handle: "care" }],
  ] as const)("%s", async (_, change) => {
    const { sim, billing } = await freshClient();
    sim.addComponent({ id: 30001, familyId: 1, kind: "on_off", handle: "support", name: "Support", description: "Help" });
    sim.injectFault({ kind: "reset", times: 1, applyAfterHandling: true, match: { method: "PUT" } });
    const got = await billing.updateComponent(1, 30001, change);
    expect({ handle: got.handle, name: got.name, description: got.description }).toStrictEqual({
      handle: "support",
      name: "Support",
      description: "Help",
      ...change,
    });
    expect(sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toStrictEqual([
      "PUT /components/30001.json 0",
      "GET /product_families/1/components/30001.json 200",
    ]);
  });
});
