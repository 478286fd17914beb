import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { providerConfig } from "../../plugin/config";
import { BillingProvider } from "../../plugin/provider";
import { type Simulator, startSimulator } from "../../simulator";

// How `pulumi import` finds a Component or a ComponentPricePoint, against the simulator over a real
// socket: an id is looked for in the site's list (archived ones too), a handle is read by handle, and a
// handle that starts or ends with digits is still a handle; the seed of the kind's read names the site
// in its args; and a component or price point gone before that read fails the import naming it.

const KEY = "sk_live_PLUGIN_COMPONENT_LOOKUP_SECRET_6161";
const EU_KEY = "sk_live_PLUGIN_COMPONENT_LOOKUP_EU_SECRET_6262";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const COMPONENT = "urn:pulumi:dev::billing-app::billing:index:Component::imported";
const PRICE_POINT = "urn:pulumi:dev::billing-app::billing:index:ComponentPricePoint::imported";

describe("import of a Component or a ComponentPricePoint: finding it", () => {
  const sims: Simulator[] = [];
  const proxies: Server[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
    for (const p of proxies.splice(0)) await new Promise((done) => p.close(done));
  });

  async function simulator(key = KEY) {
    const sim = await startSimulator({ apiKey: key });
    sims.push(sim);
    return sim;
  }

  function provider(url: string, sites?: Record<string, { baseUrl: string; apiKey: string }>) {
    const p = new BillingProvider("0.1.0");
    p.configure(
      providerConfig([["billing:config:baseUrl", url]], {
        baseUrl: url,
        apiKey: { ...SECRET, value: KEY },
        ...(sites ? { sites: { ...SECRET, value: JSON.stringify(sites) } } : {}),
      }),
    );
    return p;
  }

  /**
   * A proxy in front of `sim` that sends the `nth` GET of `path` (1 = the first) to `gone` instead, so
   * that the simulator answers its own 404 there: the object disappears between two reads.
   */
  async function goneOnRead(sim: Simulator, path: string, gone: string, nth: number) {
    let seen = 0;
    const target = new URL(sim.url);
    const proxy = createServer((req, res) => {
      const [p, query] = (req.url ?? "").split("?");
      const hit = req.method === "GET" && p === path && ++seen === nth;
      const url = hit ? `${gone}${query ? `?${query}` : ""}` : req.url;
      const out = request({ host: target.hostname, port: target.port, method: req.method, path: url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(out);
    });
    proxies.push(proxy);
    await new Promise<void>((listening) => proxy.listen(0, "127.0.0.1", listening));
    return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }

  /** Family "plans" with metered "sms" (first), on/off "support" (second) and an archived "old". */
  async function site() {
    const sim = await simulator();
    sim.addProductFamily({ handle: "plans", name: "Plans" });
    const sms = sim.addComponent({ familyHandle: "plans", kind: "metered", handle: "sms", unitName: "message", unitPrice: "0.5" });
    const support = sim.addComponent({ familyHandle: "plans", kind: "on_off", handle: "support", name: "Support", unitPrice: "25" });
    const old = sim.addComponent({ familyHandle: "plans", kind: "metered", handle: "old", unitName: "unit", archived: true });
    return { sim, sms, support, old };
  }

  describe("a Component", () => {
    it("by the id of one not first in the list: that one", async () => {
      const { sim, support } = await site();
      const imported = await provider(sim.url).read(String(support.id), COMPONENT, {});
      expect(imported.id).toBe(String(support.id));
      expect(imported.inputs).toEqual({
        productFamily: "handle:plans",
        kind: "on_off",
        handle: "support",
        name: "Support",
        unitPrice: "25.0",
      });
    });

    it("by the id of an archived one: found in the list with archived ones, and refused as archived, named by handle", async () => {
      const { sim, old } = await site();
      await expect(provider(sim.url).read(String(old.id), COMPONENT, {})).rejects.toThrow(
        new Error(
          `Component import id "${old.id}": component \`old\` (id ${old.id}) is archived, and the service has no unarchive for components: nothing to import`,
        ),
      );
    });

    it.each([["sms2"], ["2fa"]])(
      "by a handle with digits, %s: read by that handle, with no list of the site's components",
      async (handle) => {
        const { sim } = await site();
        const made = sim.addComponent({ familyHandle: "plans", kind: "metered", handle, name: "Digits", unitName: "unit" });
        const imported = await provider(sim.url).read(handle, COMPONENT, {});
        expect(imported.id).toBe(String(made.id));
        expect(imported.inputs).toMatchObject({ handle, name: "Digits" });
        expect(sim.requests.filter((r) => r.path === "/components/lookup.json").map((r) => r.query)).toEqual([{ handle }]);
        expect(sim.requests.filter((r) => r.path === "/components.json")).toEqual([]);
      },
    );

    it("by an all-digit handle no component has as its id: read by that handle (ids are looked for first)", async () => {
      const { sim } = await site();
      const made = sim.addComponent({ familyHandle: "plans", kind: "metered", handle: "987654", name: "Digits only", unitName: "unit" });
      expect(made.id).not.toBe(987654);
      const imported = await provider(sim.url).read("987654", COMPONENT, {});
      expect(imported.id).toBe(String(made.id));
      expect(imported.inputs).toMatchObject({ handle: "987654", name: "Digits only" });
      await expect(provider(sim.url).read("987655", COMPONENT, {})).rejects.toThrow(
        new Error('Component import id "987655": component 987655 does not exist at the site: nothing to import'),
      );
    });

    it("an id with more than one slash names nothing it could be", async () => {
      const { sim } = await site();
      await expect(provider(sim.url).read("eu/plans/sms", COMPONENT, {})).rejects.toThrow(
        new Error(
          'Component import id "eu/plans/sms": give the component\'s handle or id (e.g. text-messages), or <site>/<handle> for an entry of billing:sites',
        ),
      );
    });

    it("<site>/<handle>: the state records the site, its args too", async () => {
      const { sim } = await site();
      const eu = await simulator(EU_KEY);
      eu.addProductFamily({ handle: "eu-plans", name: "EU plans" });
      const seats = eu.addComponent({ familyHandle: "eu-plans", kind: "quantity_based", handle: "seats", name: "Seats", unitName: "seat" });
      const imported = await provider(sim.url, { eu: { baseUrl: eu.url, apiKey: EU_KEY } }).read("eu/seats", COMPONENT, {});
      const { site: _, ...args } = imported.inputs ?? {};
      expect(args).toEqual({
        productFamily: "handle:eu-plans",
        kind: "quantity_based",
        handle: "seats",
        name: "Seats",
        unitName: "seat",
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, unitPrice: "1.0" }],
      });
      expect(imported.props).toMatchObject({ site: "eu", componentId: seats.id });
      expect(imported.props?.args).toEqual({ ...args, site: "eu" });
    });

    it("gone between finding it and the kind's read: fails naming it", async () => {
      const { sim, sms } = await site();
      const url = await goneOnRead(
        sim,
        `/product_families/${sms.familyId}/components/${sms.id}.json`,
        `/product_families/${sms.familyId}/components/999999.json`,
        1,
      );
      await expect(provider(url).read("sms", COMPONENT, {})).rejects.toThrow(
        new Error('Component import id "sms": component sms is gone at the site: nothing to import'),
      );
      expect(sim.requests.filter((r) => r.method !== "GET")).toEqual([]);
    });
  });

  describe("a ComponentPricePoint", () => {
    /** Price point "bulk" of the given component. */
    const bulk = (sim: Simulator, componentHandle: string) =>
      sim.addComponentPricePoint(
        { componentHandle },
        { handle: "bulk", name: "Bulk", pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.4" }] },
      );

    it("by the id of a component not first in the list: that one's price point", async () => {
      const { sim, support } = await site();
      bulk(sim, "sms");
      const pp = bulk(sim, "support");
      const imported = await provider(sim.url).read(`${support.id}/bulk`, PRICE_POINT, {});
      expect(imported.id).toBe(String(pp.id));
      expect(imported.inputs).toEqual({
        component: "handle:support",
        handle: "bulk",
        name: "Bulk",
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, unitPrice: "0.4" }],
      });
    });

    it("by the id of an archived component: found in the list with archived ones, its price point imported", async () => {
      const { sim, old } = await site();
      const pp = old.pricePoints.find((x) => x.default);
      const imported = await provider(sim.url).read(`${old.id}/${pp?.id}`, PRICE_POINT, {});
      expect(imported.id).toBe(String(pp?.id));
      expect(imported.inputs).toMatchObject({ component: "handle:old", handle: pp?.handle, default: true });
    });

    it.each([
      ["sms2", "bulk"],
      ["2fa", "bulk"],
      ["sms2", "bulk3"],
      ["sms2", "3bulk"],
    ])("by handles with digits, %s/%s: each read by its handle", async (componentHandle, ppHandle) => {
      const { sim } = await site();
      const c = sim.addComponent({ familyHandle: "plans", kind: "metered", handle: componentHandle, unitName: "unit" });
      const pp = sim.addComponentPricePoint(
        { componentHandle },
        { handle: ppHandle, name: "Digits", pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.4" }] },
      );
      const imported = await provider(sim.url).read(`${componentHandle}/${ppHandle}`, PRICE_POINT, {});
      expect(imported.id).toBe(String(pp.id));
      expect(imported.props).toMatchObject({ componentId: c.id, pricePointId: pp.id, handle: ppHandle });
    });

    it("by all-digit handles no component or price point has as its id: each read by its handle", async () => {
      const { sim } = await site();
      const c = sim.addComponent({ familyHandle: "plans", kind: "metered", handle: "987654", unitName: "unit" });
      const pp = sim.addComponentPricePoint(
        { componentHandle: "987654" },
        { handle: "424242", name: "Digits only", pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.4" }] },
      );
      const imported = await provider(sim.url).read("987654/424242", PRICE_POINT, {});
      expect(imported.id).toBe(String(pp.id));
      expect(imported.props).toMatchObject({ componentId: c.id, pricePointId: pp.id, handle: "424242" });
      await expect(provider(sim.url).read("987654/424243", PRICE_POINT, {})).rejects.toThrow(
        new Error('ComponentPricePoint import id "987654/424243": component 987654 has no component price point 424243: nothing to import'),
      );
    });

    it("<site>/<component>/<price point>: the state records the site, its args too", async () => {
      const { sim } = await site();
      const eu = await simulator(EU_KEY);
      eu.addProductFamily({ handle: "eu-plans", name: "EU plans" });
      eu.addComponent({ familyHandle: "eu-plans", kind: "metered", handle: "sms", unitName: "message" });
      const pp = bulk(eu, "sms");
      const imported = await provider(sim.url, { eu: { baseUrl: eu.url, apiKey: EU_KEY } }).read("eu/sms/bulk", PRICE_POINT, {});
      const args = {
        component: "handle:sms",
        handle: "bulk",
        name: "Bulk",
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, unitPrice: "0.4" }],
      };
      expect(imported.inputs).toEqual({ ...args, site: "eu" });
      expect(imported.props).toMatchObject({ site: "eu", pricePointId: pp.id });
      expect(imported.props?.args).toEqual({ ...args, site: "eu" });
    });

    it("gone between finding it and the kind's read: fails naming it", async () => {
      const { sim, sms } = await site();
      const pp = bulk(sim, "sms");
      // Found by handle, then read by id: the read by id finds nothing.
      const url = await goneOnRead(
        sim,
        `/components/${sms.id}/price_points/${pp.id}.json`,
        `/components/${sms.id}/price_points/999999.json`,
        1,
      );
      await expect(provider(url).read("sms/bulk", PRICE_POINT, {})).rejects.toThrow(
        new Error('ComponentPricePoint import id "sms/bulk": price point bulk is gone at the site: nothing to import'),
      );
      expect(sim.requests.filter((r) => r.method !== "GET")).toEqual([]);
    });
  });
});
