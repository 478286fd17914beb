import type * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it } from "vitest";
import * as billing from "../../provider";
import { KINDS } from "../../provider";
import { type Simulator, startSimulator } from "../../simulator";
import { EXAMPLE_PREREQUISITES, launchPro, textMessages } from "../example-prerequisites";
import { configureRequest } from "./support";

/**
 * Every kind talks to the site its `site` input names, in every call that reaches the service. The top-level
 * site and the `eu` entry of billing:sites are two simulators with two keys, seeded alike (the demo site and
 * what the examples refer to), so a kind that ignored `site` would succeed just as well at the top level:
 * only the top-level simulator's request log can tell, and it must stay empty. (Issue 24: a WebhookEndpoint
 * that ignored `site` passed every unit test while both sites were one simulator; the catalog kinds, the
 * migration and the replay had no routing test at all.)
 */
const TOP_KEY = "sk_live_TOP_SITE_3131";
const EU_KEY = "sk_live_EU_SITE_7373";
const MODULES = Object.values(KINDS);

/**
 * What an example refers to beyond the demo seed (tests/example-prerequisites.ts), made on both sites, and what the
 * in-place changes below refer to besides: another component for a price point, another family for a coupon, seats
 * for an offer's new handle.
 */
const PREREQUISITES: Partial<Record<string, (sim: Simulator) => void>> = {
  ...EXAMPLE_PREREQUISITES,
  componentPricePoint: (sim) => {
    textMessages(sim);
    sim.addComponent({
      familyHandle: "plans",
      kind: "metered",
      handle: "voice-minutes",
      name: "Voice minutes",
      unitName: "unit",
      pricingScheme: "per_unit",
      unitPrice: "0.02",
    });
  },
  coupon: (sim) => {
    launchPro(sim);
    sim.addProductFamily({ handle: "seasonal", name: "Seasonal" });
  },
  offer: (sim) => {
    EXAMPLE_PREREQUISITES.offer?.(sim);
    sim.addComponent({ familyHandle: "plans", kind: "quantity_based", handle: "seats", unitPrice: "10" });
  },
};

/** Inputs beside the example, so that a later call has something to send: WebhookSettings' delete disables delivery. */
const WITH: Partial<Record<string, Record<string, unknown>>> = {
  webhookSettings: { disableOnDelete: true },
};

/**
 * An in-place change of each kind whose update talks to the service (the others replace on any change, or
 * send nothing): a new handle or code where it changes in place, since that is checked against the site first.
 */
const IN_PLACE: Partial<Record<string, Record<string, unknown>>> = {
  webhookSettings: { webhooksEnabled: false },
  webhookEndpoint: { events: ["payment_success"] },
  // Sends nothing new, but refreshes the record from the subscription.
  subscriptionMigration: { maxChargeInCents: 1_000_000 },
  product: { handle: "launch-pro-eu", name: "Launch Pro (eu)" },
  productPricePoint: { handle: "pro-biennial-eu" },
  component: { handle: "text-messages-eu", name: "Text messages (eu)" },
  componentPricePoint: { handle: "text-messages-volume-eu", name: "Volume pricing (eu)" },
  coupon: { code: "SPRING25EU", name: "Spring sale (eu)" },
};

/**
 * A change that replaces the resource, for each kind whose replacement does more than a create (frees a handle,
 * archives or promotes, migrates again, lists the webhooks a selector finds). `undefined` removes an input.
 */
const REPLACING: Partial<Record<string, Record<string, unknown>>> = {
  subscriptionMigration: { productHandle: "launch" },
  webhookReplay: { ids: undefined, selector: { status: "failed", subscriptionId: 1001 } },
  productFamily: { handle: "launch-eu" },
  productPricePoint: { priceInCents: 95000 },
  // Under another name: the replaced component holds its own until it is archived after the new one (component-names.ts).
  component: { unitName: "text", name: "Texts (eu)" },
  componentPricePoint: { component: "handle:voice-minutes" },
  coupon: { productFamily: "handle:seasonal" },
  // An offer has no update: a change takes a new handle, and replaces it.
  offer: { handle: "launch-bundle-eu", components: [{ component: "handle:seats", startingQuantity: 6 }] },
};

/** The kinds whose delete asks the service something (an archive, an endpoint emptied); the others only leave state. */
const DELETE_TALKS = new Set(["webhookEndpoint", "product", "productPricePoint", "component", "componentPricePoint", "coupon"]);

/** `declared` without the inputs set to undefined (removed), as a program's inputs reach check(). */
const defined = (declared: Record<string, unknown>) => Object.fromEntries(Object.entries(declared).filter(([, v]) => v !== undefined));

/** What a kind records: its outputs, and (the migration, the replay) the arguments it keeps beside them. */
const recorded = (outs: Record<string, unknown>): Record<string, unknown> => ({ ...(outs.args as object | undefined), ...outs });
const recordedSite = (outs: Record<string, unknown>) => recorded(outs).site;

/** A request as the simulator logs it, in a few words. */
const said = (sim: Simulator) => sim.requests.map((r) => `${r.method} ${r.path}`);

describe("site routing: every kind talks to the billing:sites entry its `site` names, never the top-level site", () => {
  const sims: Simulator[] = [];
  afterEach(async () => {
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });

  async function site(apiKey: string, prepare: ((sim: Simulator) => void) | undefined): Promise<Simulator> {
    const sim = await startSimulator({ seed: "demo", apiKey });
    sims.push(sim);
    prepare?.(sim);
    return sim;
  }

  /** A provider whose top-level site is `top` and whose billing:sites entry `eu` is `eu`, each with its own key. */
  async function providerOf(
    key: string,
    top: Simulator,
    eu: Simulator,
    extra: Record<string, string> = {},
  ): Promise<pulumi.dynamic.ResourceProvider> {
    const exported = (billing as unknown as Record<string, pulumi.dynamic.ResourceProvider>)[`${key}Provider`];
    expect(exported, `${key}Provider is exported`).toBeDefined();
    const p = { ...exported } as pulumi.dynamic.ResourceProvider;
    await p.configure!(
      configureRequest({
        "billing:baseUrl": top.url,
        "billing:apiKey": TOP_KEY,
        "billing:sites": JSON.stringify({ eu: { baseUrl: eu.url, apiKey: EU_KEY } }),
        ...extra,
      }),
    );
    return p;
  }

  it.each(MODULES.map(({ kind }) => [kind.type, kind] as const))(
    "%s: check, create, update, read, replace and delete on eu",
    async (_type, kind) => {
      const top = await site(TOP_KEY, PREREQUISITES[kind.key]);
      const eu = await site(EU_KEY, PREREQUISITES[kind.key]);
      const p = await providerOf(kind.key, top, eu);
      /** After each call: nothing reached the top-level site. */
      const nothingAtTop = (step: string) => expect(said(top), `${kind.type} ${step} asked the top-level site`).toEqual([]);

      const inputs = { ...(kind.example as Record<string, unknown>), ...WITH[kind.key], site: "eu" };
      const checked = await p.check!({}, inputs);
      expect(checked.failures ?? []).toEqual([]);
      nothingAtTop("check");

      const created = await p.create(checked.inputs);
      nothingAtTop("create");
      expect(recordedSite(created.outs), `${kind.type} records its site`).toBe("eu");
      // The write (or, for a kind that adopts what the site holds, at least a read) went to eu.
      expect(eu.requests.length, `${kind.type} create asked eu nothing`).toBeGreaterThan(0);
      /** The resource as the engine holds it now: what the program declares, what check() made of it, the outputs. */
      let held: { declared: Record<string, unknown>; id: string; outs: Record<string, unknown>; inputs: Record<string, unknown> } = {
        declared: inputs,
        id: created.id,
        outs: created.outs as Record<string, unknown>,
        inputs: checked.inputs,
      };

      const change = IN_PLACE[kind.key];
      if (change) {
        const declared = { ...held.declared, ...change };
        const again = await p.check!(held.inputs, declared);
        expect(again.failures ?? []).toEqual([]);
        nothingAtTop("check of an update");
        const diff = await p.diff!(held.id, held.outs, again.inputs);
        expect(diff, `${kind.type}: ${JSON.stringify(change)} changes in place`).toMatchObject({ changes: true });
        expect(diff.replaces ?? []).toEqual([]);
        const before = eu.requests.length;
        const updated = await p.update!(held.id, held.outs, again.inputs);
        nothingAtTop("update");
        expect(eu.requests.length, `${kind.type} update asked eu nothing`).toBeGreaterThan(before);
        expect(recorded(updated.outs as Record<string, unknown>)).toMatchObject(change);
        expect(recordedSite(updated.outs as Record<string, unknown>)).toBe("eu");
        held = { ...held, declared, outs: updated.outs as Record<string, unknown>, inputs: again.inputs };
      }

      if (p.read) {
        const before = eu.requests.length;
        const read = await p.read(held.id, held.outs);
        nothingAtTop("read");
        expect(eu.requests.length, `${kind.type} read asked eu nothing`).toBeGreaterThan(before);
        expect(read.props, `${kind.type} read found it on eu`).toBeDefined();
        expect(recordedSite(read.props as Record<string, unknown>)).toBe("eu");
      }

      const replacing = REPLACING[kind.key];
      if (replacing) {
        // As the engine replaces: check the new inputs against the old, diff, create the new one, delete the old one.
        const declared = defined({ ...held.declared, ...replacing });
        const again = await p.check!(held.inputs, declared);
        expect(again.failures ?? []).toEqual([]);
        nothingAtTop("check of a replacement");
        const diff = await p.diff!(held.id, held.outs, again.inputs);
        expect(diff.replaces, `${kind.type}: ${JSON.stringify(replacing)} replaces`).toEqual(
          expect.arrayContaining([Object.keys(replacing)[0]]),
        );
        const before = eu.requests.length;
        const replacement = await p.create(again.inputs);
        nothingAtTop("create of a replacement");
        expect(eu.requests.length, `${kind.type} replacement asked eu nothing`).toBeGreaterThan(before);
        expect(recordedSite(replacement.outs)).toBe("eu");
        await p.delete!(held.id, held.outs);
        nothingAtTop("delete of the replaced one");
        held = { declared, id: replacement.id, outs: replacement.outs, inputs: again.inputs };
      }

      const before = eu.requests.length;
      await p.delete!(held.id, held.outs);
      nothingAtTop("delete");
      if (DELETE_TALKS.has(kind.key)) expect(eu.requests.length, `${kind.type} delete asked eu nothing`).toBeGreaterThan(before);
    },
  );

  it("WebhookEndpoint: a create left unknown on eu is resumed there, and a pending record's delete looks there", async () => {
    const top = await site(TOP_KEY, undefined);
    const eu = await site(EU_KEY, undefined);
    // A short settle window: reading back a create whose answer was lost gives up after a second.
    const p = await providerOf("webhookEndpoint", top, eu, { "billing:migrationSettleSeconds": "1" });
    const list = "/endpoints.json";
    /** The next create on eu applies, but its answer is lost and reading it back fails: its outcome is unknown. */
    const unknownOutcome = () => {
      eu.injectFault({ kind: "reset", applyAfterHandling: true, times: 1, match: { method: "POST", path: list } });
      eu.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET", path: list } }); // the lookup before it
      eu.injectFault({ kind: "reset", match: { method: "GET", path: list } });
    };
    const pending = async (url: string) => {
      unknownOutcome();
      const err = (await p.create({ url, events: ["payment_failure"], site: "eu" }).catch((e: unknown) => e)) as {
        id: string;
        properties: Record<string, unknown>;
      };
      expect(err.properties, "the create is recorded pending, with its site").toMatchObject({
        pendingToken: expect.any(String),
        site: "eu",
      });
      eu.clearFaults();
      return err;
    };
    const endpointAt = (url: string) => eu.endpoints().find((e) => e.url === url);

    // Resumed with another url: the endpoint the first create made is found on eu and moved there.
    const a = await pending("https://hooks.example.com/a");
    const made = endpointAt("https://hooks.example.com/a");
    expect(made).toBeDefined();
    const resumed = await p.update!(a.id, a.properties, { url: "https://hooks.example.com/a2", events: ["payment_failure"], site: "eu" });
    expect(resumed.outs).toMatchObject({ endpointId: made!.id, url: "https://hooks.example.com/a2", site: "eu" });
    expect(endpointAt("https://hooks.example.com/a2")?.id).toBe(made!.id);

    // Deleted while still pending: the endpoint at the recorded url is found on eu and unsubscribed there.
    const b = await pending("https://hooks.example.com/b");
    await p.delete!(b.id, b.properties);
    expect(endpointAt("https://hooks.example.com/b")?.events).toEqual([]);
    expect(said(top), "the top-level site was asked").toEqual([]);
  });
});
