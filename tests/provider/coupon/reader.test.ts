import { describe, expect, it, onTestFinished } from "vitest";
import { providerConfig } from "../../../plugin/config";
import { BillingProvider } from "../../../plugin/provider";
import { couponProvider } from "../../../provider";
import { coupon } from "../../../provider/kinds/coupon";
import { instantOf } from "../../../provider/kinds/coupon-reader";
import type { SiteView } from "../../../provider/kinds/kind";
import type { BillingClient } from "../../../sdk/client";
import type { Coupon } from "../../../sdk/results";
import type { Simulator } from "../../../simulator";
import { configured, KEY } from "../support";
import { couponSite, type Props } from "./site";

/**
 * The Coupon kind's catalog facet and reader, the one reading of coupons that export, diff, the import file and
 * `pulumi import` share: listed across the site, archived ones included, keyed by code; found by code, else by id;
 * written as the inputs that declare what the service holds (references by handle, service defaults left out, the
 * end date as the service answers it), which check accepts and which re-create the same coupon at another site;
 * recorded as the state today's `pulumi import` records, an archived coupon refused.
 */

const reader = coupon.reader!;
const URN = "urn:pulumi:dev::app::billing:index:Coupon::imported";
const facet = coupon.kind.catalog!;

/** The rest of a site, as the catalog's read gives it to `fromService`: handles by id, from the site's lists. */
const siteView = (client: BillingClient): SiteView => ({
  async keyOf(kind, id) {
    const rows: readonly { id: number; handle?: string }[] =
      kind === "productFamily"
        ? await client.listProductFamilies()
        : kind === "product"
          ? await client.listProducts({ includeArchived: true })
          : kind === "component"
            ? await client.listComponents({ includeArchived: true })
            : [];
    return rows.find((r) => r.id === id)?.handle;
  },
  children: async () => [],
});

/**
 * A coupon as the service holds it, without what only its site says (ids, times; the end date as an instant, which
 * site data may hold as a bare date). Restrictions by type and id: both sites give basic, pro and support the same ids.
 */
function held(sim: Simulator, code: string) {
  const c = sim.coupons().find((x) => x.code === code);
  if (!c) throw new Error(`no coupon ${code}`);
  const { id: _, familyId: __, startDate: ___, createdAt: ____, updatedAt: _____, restrictions, endDate, ...rest } = c;
  return {
    ...rest,
    endDate: endDate === null ? null : instantOf(endDate),
    restrictions: restrictions.map((r) => `${r.itemType}:${r.itemId}`).sort(),
  };
}

describe("Coupon's catalog facet and reader", () => {
  const { setup } = couponSite();

  /** The coupon with this code, as the SDK reads it. */
  const read = async (client: BillingClient, code: string): Promise<Coupon> => {
    const c = await reader.find(client, code);
    if (!c) throw new Error(`no coupon ${code}`);
    return c as Coupon;
  };

  it("the facet: keyed by code, three references, the runtime inputs, the service's defaults, the review's words", () => {
    expect(facet).toMatchObject({
      key: "code",
      references: {
        productFamily: { kind: "productFamily", output: "familyId" },
        restrictedProducts: { kind: "product", output: "productId" },
        restrictedComponents: { kind: "component", output: "componentId" },
      },
      runtimeInputs: ["adopt", "pricingChangeAcknowledged", "site"],
      defaults: {
        recurring: false,
        stackable: false,
        compoundingStrategy: "compound",
        allowNegativeBalance: false,
        excludeMidPeriodAllocations: false,
        applyOnCancelAtEndOfPeriod: false,
        applyOnSubscriptionExpiration: false,
      },
      noun: "coupon",
      title: "Coupon",
      // Its discount is what subscribers pay less: a pricing change the review and the policy pack judge (issue 42).
      pricing: expect.objectContaining({ fields: ["percentage", "amountInCents", "currencyPrices"], policy: expect.any(String) }),
    });
    expect(facet.replaced({})).toEqual(["create the new coupon (or adopt one with its code)", "archive the old one"]);
    expect(facet.deleted({})).toEqual(["archived: it can no longer be applied; subscriptions that have it keep their discount"]);
    // Every input is either what the service holds or one of the runtime inputs.
    for (const k of [...Object.keys(facet.references), ...facet.runtimeInputs, ...Object.keys(facet.defaults)])
      expect(Object.keys(coupon.kind.inputs.shape)).toContain(k);
  });

  it("lists every coupon, archived ones too, each keyed by its code", async () => {
    const { sim, client } = await setup();
    const live = sim.addCoupon({ familyHandle: "plans", code: "LIVE5", percentage: 5 });
    const old = sim.addCoupon({ familyHandle: "plans", code: "OLD10", percentage: 10, archived: true });
    const listed = (await reader.list(client)) as Coupon[];
    expect(listed.map((c) => [reader.id(c), reader.key(c), reader.archived(c)])).toEqual([
      [live.id, "LIVE5", false],
      [old.id, "OLD10", true],
    ]);
    expect(reader.key({ ...(listed[0] as Coupon), code: undefined })).toBe(undefined);
    expect(reader.key({ ...(listed[0] as Coupon), code: "" })).toBe(undefined);
  });

  describe("find: by code, else by id (a code may be digits only: the code wins)", () => {
    it("by code, with one request; by id, after the code found nothing; a key naming nothing, undefined", async () => {
      const { sim, client } = await setup();
      const spring = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", percentage: 25 });
      const digits = sim.addCoupon({ familyHandle: "plans", code: String(spring.id), percentage: 5 });
      const old = sim.addCoupon({ familyHandle: "plans", code: "OLD10", percentage: 10, archived: true });
      sim.reset();
      expect(reader.id(await read(client, "SPRING25"))).toBe(spring.id);
      expect(sim.requests.map((r) => r.query["filter[codes]"])).toEqual(["SPRING25"]);
      expect(reader.id(await read(client, String(spring.id)))).toBe(digits.id);
      expect(reader.id(await read(client, String(old.id)))).toBe(old.id);
      expect(await reader.find(client, "NOPE")).toBe(undefined);
      expect(await reader.find(client, "lower")).toBe(undefined);
    });
  });

  describe("fromService: the inputs that declare what the service holds", () => {
    it("references by handle (the answer's, else the site's), else by id, as check writes them; defaults left out", async () => {
      const { sim, client } = await setup();
      const bare = sim.addProduct({ familyHandle: "plans" });
      sim.addCoupon({
        familyHandle: "plans",
        code: "MIXED",
        amountInCents: 500,
        restrictedProducts: ["pro", bare.id, "basic"],
        restrictedComponents: ["support"],
      });
      const inputs = await reader.fromService(await read(client, "MIXED"), siteView(client));
      expect(inputs).toStrictEqual({
        productFamily: "handle:plans",
        code: "MIXED",
        name: "MIXED",
        amountInCents: 500,
        restrictedProducts: [bare.id, "handle:basic", "handle:pro"],
        restrictedComponents: ["handle:support"],
      });
      // A restriction the answer names no handle for is asked of the site.
      const c = await read(client, "MIXED");
      const unnamed = { ...c, restrictions: c.restrictions.map((r) => ({ ...r, handle: undefined })) };
      expect((await reader.fromService(unnamed, siteView(client))).restrictedProducts).toEqual([bare.id, "handle:basic", "handle:pro"]);
    });

    it.each([
      ["a bare date (site data)", "2031-06-30", "2031-06-30T00:00:00Z"],
      ["as the service answers a create", "2031-06-30T00:00:00Z", "2031-06-30T00:00:00Z"],
      ["at another offset", "2031-06-30T12:00:00+02:00", "2031-06-30T10:00:00Z"],
    ])("an end date %s is written as the service answers it after a create", async (_, endDate, written) => {
      const { sim, client } = await setup();
      sim.addCoupon({ familyHandle: "plans", code: "DATED", percentage: 10, endDate });
      expect((await reader.fromService(await read(client, "DATED"), siteView(client))).endDate).toBe(written);
      expect(instantOf(endDate)).toBe(written);
    });

    it("text that is no date is written as it is", () => {
      expect(instantOf("soon")).toBe("soon");
    });

    it.each([
      [
        "a percentage coupon with every option",
        {
          name: "Spring sale",
          description: "For spring",
          percentage: 12.5,
          recurring: true,
          durationPeriodCount: 3,
          endDate: "2031-06-30",
          stackable: true,
          compoundingStrategy: "full-price" as const,
          restrictedProducts: ["pro", "basic"],
          restrictedComponents: ["support"],
        },
      ],
      [
        "an amount coupon with the four flags, recurring indefinitely",
        {
          amountInCents: 500,
          recurring: true,
          allowNegativeBalance: true,
          excludeMidPeriodAllocations: true,
          applyOnCancelAtEndOfPeriod: true,
          applyOnSubscriptionExpiration: true,
        },
      ],
      [
        "a coupon holding the service's defaults, said explicitly",
        { percentage: 10, recurring: false, stackable: false, compoundingStrategy: "compound" as const, allowNegativeBalance: false },
      ],
    ])("%s: check accepts them, and they make the same coupon at another site", async (_, fields) => {
      const { sim, client } = await setup();
      sim.addCoupon({ familyHandle: "plans", code: "COPY", ...fields });
      const inputs = await reader.fromService(await read(client, "COPY"), siteView(client));
      for (const [k, v] of Object.entries(facet.defaults)) expect(inputs[k], k).not.toEqual(v);
      const other = await configured(couponProvider);
      onTestFinished(() => other.sim.close());
      other.sim.addComponent({ familyHandle: "plans", kind: "on_off", handle: "support" });
      const checked = await other.provider.check!({}, inputs);
      expect(checked.failures).toEqual([]);
      await other.provider.create(checked.inputs);
      expect(held(other.sim, "COPY")).toEqual(held(sim, "COPY"));
    });
  });

  describe("record: the state `pulumi import` records", () => {
    /** The plugin's provider for the site, as `pulumi import` runs it. */
    function plugin(sim: Simulator, key: string) {
      const p = new BillingProvider("0.1.0");
      const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
      p.configure(providerConfig([["billing:config:baseUrl", sim.url]], { baseUrl: sim.url, apiKey: { ...secret, value: key } }));
      return p;
    }

    it.each([
      ["restricted by handle", { percentage: 25, recurring: true, durationPeriodCount: 3, restrictedProducts: ["pro"] }],
      ["with a date and no restrictions", { amountInCents: 500, description: "Five off", endDate: "2030-01-01T00:00:00Z" }],
    ])("%s: the inputs and the state of today's import, which declared so previews no changes", async (_, fields) => {
      const { sim, client } = await setup();
      const made = sim.addCoupon({ familyHandle: "plans", code: "IMPORTED", ...fields });
      const c = await read(client, "IMPORTED");
      const inputs = await reader.fromService(c, siteView(client));
      const state = (await reader.record(client, c, inputs, undefined)) as Props;
      const p = plugin(sim, KEY);
      const imported = await p.read("IMPORTED", URN, {});
      expect(inputs).toEqual(imported.inputs);
      expect(state).toEqual(imported.props);
      expect(state).toMatchObject({ couponId: made.id, code: "IMPORTED", args: inputs, productFamilyHandle: "plans" });
      const checked = await p.check(URN, inputs, inputs);
      expect(checked.failures ?? []).toEqual([]);
      expect(await p.diff(String(made.id), URN, state, checked.inputs ?? {})).toMatchObject({ changes: false });
    });

    it("an archived coupon is refused: the service cannot unarchive one", async () => {
      const { sim, client } = await setup();
      const old = sim.addCoupon({ familyHandle: "plans", code: "OLD10", percentage: 10, archived: true });
      const c = await read(client, "OLD10");
      await expect(reader.record(client, c, await reader.fromService(c, siteView(client)), undefined)).rejects.toThrow(
        new Error(
          `coupon \`OLD10\` (id ${old.id}) is archived (since ${c.archivedAt}), and the service cannot unarchive a coupon: nothing to manage`,
        ),
      );
    });

    it("at a named site: the site in its outputs, and in its args when the inputs name it", async () => {
      const { sim, client } = await setup();
      sim.addCoupon({ familyHandle: "plans", code: "EU5", amountInCents: 500 });
      const c = await read(client, "EU5");
      const inputs = { ...(await reader.fromService(c, siteView(client))), site: "eu" };
      const state = (await reader.record(client, c, inputs, "eu")) as Props;
      expect(state).toMatchObject({ site: "eu", args: inputs });
      expect("resolvedProductIds" in state).toBe(false);
    });
  });
});
