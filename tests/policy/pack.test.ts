import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { PRICING_FIELDS, policies, TYPES } from "../../policy";
import { KINDS } from "../../provider/kinds";
import { PRICING_FIELDS as PROVIDER_PRICING_FIELDS } from "../../provider/kinds/catalog";

const ROOT = path.resolve(__dirname, "../..");

describe("the policy pack", () => {
  it("has the seven policies, each mandatory unless a stack's policy config says otherwise", () => {
    expect(policies.map((p) => [p.name, p.enforcementLevel])).toEqual([
      ["migration-states-preserve-period", "mandatory"],
      ["migration-subscription-eligible", "mandatory"],
      ["migration-charge-acknowledged", "mandatory"],
      ["webhooks-stay-enabled-in-production", "mandatory"],
      ["webhook-endpoint-https", "mandatory"],
      ["pricing-change-acknowledged-in-production", "mandatory"],
      ["data-kept-in-production", "mandatory"],
    ]);
    for (const p of policies) expect(p.description.length).toBeGreaterThan(10);
  });

  it("matches the types the kinds register (module billing) and reads inputs they declare", () => {
    const declared = (key: keyof typeof KINDS) => Object.keys(KINDS[key].kind.inputs.shape);
    // Every kind's type, from the registry (the one list of kinds).
    expect(TYPES).toEqual(
      Object.fromEntries(Object.values(KINDS).map((m) => [m.kind.key, `pulumi-nodejs:dynamic/billing:${m.kind.type}`])),
    );
    // A renamed input would silently turn a policy into a no-op: the inputs the policies read are pinned here.
    expect(declared("subscriptionMigration")).toEqual(expect.arrayContaining(["subscriptionId", "preservePeriod", "maxChargeInCents"]));
    expect(declared("webhookSettings")).toEqual(expect.arrayContaining(["webhooksEnabled", "disableOnDelete"]));
    expect(declared("webhookEndpoint")).toEqual(expect.arrayContaining(["url"]));
    for (const key of ["product", "productPricePoint"] as const) {
      expect(declared(key)).toEqual(expect.arrayContaining(["pricingChangeAcknowledged", ...PRICING_FIELDS]));
    }
    // The data-deleting inputs the pack judges are declared by their kinds (CustomField's deleteData).
    expect(declared("customField")).toEqual(expect.arrayContaining(["deleteData", "resourceType"]));
    // The pricing fields the pack exports are the provider's.
    expect(PRICING_FIELDS).toEqual(PROVIDER_PRICING_FIELDS);
  });

  it("config schemas: valid JSON Schema, the defaults the code applies, bad values refused", () => {
    const ajv = new Ajv({ strict: true, useDefaults: true });
    const schemaOf = (name: string) => {
      const p = policies.find((x) => x.name === name);
      return { type: "object", additionalProperties: true, ...p?.configSchema };
    };
    const charge = ajv.compile(schemaOf("migration-charge-acknowledged"));
    const filled: Record<string, unknown> = {};
    expect(charge(filled)).toBe(true);
    expect(filled).toEqual({ chargeThresholdInCents: 0 });
    expect(charge({ chargeThresholdInCents: 2500 })).toBe(true);
    expect(charge({ chargeThresholdInCents: -1 })).toBe(false);
    expect(charge({ chargeThresholdInCents: "2500" })).toBe(false);
    const production = ajv.compile(schemaOf("webhooks-stay-enabled-in-production"));
    const filledProd: Record<string, unknown> = {};
    expect(production(filledProd)).toBe(true);
    expect(filledProd).toEqual({ production: false });
    expect(production({ production: "yes" })).toBe(false);
    const pricing = ajv.compile(schemaOf("pricing-change-acknowledged-in-production"));
    const filledPricing: Record<string, unknown> = {};
    expect(pricing(filledPricing)).toBe(true);
    expect(filledPricing).toEqual({ production: false });
    expect(pricing({ production: 1 })).toBe(false);
  });

  it("ships a launcher the CLI can execute and a PulumiPolicy.yaml beside it", () => {
    const launcher = path.join(ROOT, "policy/pack");
    expect(statSync(launcher).mode & 0o111).toBe(0o111);
    expect(readFileSync(launcher, "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(readFileSync(path.join(ROOT, "policy/PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
    // The launcher runs the compiled pack from the package's root: that is where the build puts it.
    expect(readFileSync(launcher, "utf8")).toContain('path.join(root, "dist", "policy", "pack.js")');
    expect(existsSync(path.join(ROOT, "policy/pack.ts"))).toBe(true);
  });
});
