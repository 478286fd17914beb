import type { ResourceValidationPolicy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import {
  dataKeptInProduction,
  migrationChargeAcknowledged,
  migrationStatesPreservePeriod,
  migrationSubscriptionEligible,
  pricingChangeAcknowledgedInProduction,
  TYPES,
  webhookEndpointHttps,
  webhooksStayEnabledInProduction,
} from "../../policy";
import { crossGuard, violations as judge } from "./crossguard";

const URN = {
  [TYPES.subscriptionMigration]: `urn:pulumi:prod::billing::${TYPES.subscriptionMigration}::subscription-1001`,
  [TYPES.webhookSettings]: `urn:pulumi:prod::billing::${TYPES.webhookSettings}::webhooks`,
  [TYPES.webhookEndpoint]: `urn:pulumi:prod::billing::${TYPES.webhookEndpoint}::hooks`,
  [TYPES.product]: `urn:pulumi:prod::billing::${TYPES.product}::pro`,
  [TYPES.productPricePoint]: `urn:pulumi:prod::billing::${TYPES.productPricePoint}::pro-annual`,
  // The provider plugin's types of the same kinds.
  "billing:index:WebhookSettings": "urn:pulumi:prod::billing::billing:index:WebhookSettings::webhooks",
  "billing:index:SubscriptionMigration": "urn:pulumi:prod::billing::billing:index:SubscriptionMigration::subscription-1001",
};
type BillingType = keyof typeof URN;

/** A policy's violations on a resource of `type` (its urn as a stack "prod" would have it). */
const violations = (policy: ResourceValidationPolicy, type: string, props: Record<string, unknown>, config: Record<string, unknown> = {}) =>
  judge(policy, { type, urn: URN[type as BillingType] ?? `urn:pulumi:prod::billing::${type}::other`, props }, config);

const migration = (props: Record<string, unknown>) => ({ subscriptionId: 1001, productHandle: "pro", preservePeriod: true, ...props });
const preview = (p: Record<string, unknown>) => ({
  preview: { subscriptionState: "active", productId: 1, productHandle: "basic", pricePointId: 101, ...p },
});
const WHO = "SubscriptionMigration 'subscription-1001'";

type Case = readonly [label: string, props: Record<string, unknown>, expected: readonly RegExp[], config?: Record<string, unknown>];

function table(policy: ResourceValidationPolicy, type: string, cases: readonly Case[]) {
  for (const [label, props, expected, config] of cases) {
    it(label, async () => {
      const got = await violations(policy, type, props, config);
      expect(got).toHaveLength(expected.length);
      expected.forEach((pattern, i) => {
        expect(got[i]).toMatch(pattern);
      });
    });
  }
}

describe("migration-states-preserve-period", () => {
  table(migrationStatesPreservePeriod, TYPES.subscriptionMigration, [
    ["true complies", migration({ preservePeriod: true }), []],
    ["false complies", migration({ preservePeriod: false }), []],
    [
      "absent is a violation naming the resource and both fixes",
      migration({ preservePeriod: undefined }),
      [/^SubscriptionMigration 'subscription-1001' does not state preservePeriod\. .*Add preservePeriod: true or preservePeriod: false/],
    ],
    ["a non-boolean is a violation", migration({ preservePeriod: "yes" }), [/has preservePeriod "yes", not true or false/]],
    ["unknown at preview (from an output) is not judged", migration({ preservePeriod: crossGuard.unknownBooleanValue }), []],
  ]);

  it("looks at migrations only", async () => {
    expect(await violations(migrationStatesPreservePeriod, TYPES.webhookSettings, { webhooksEnabled: true })).toEqual([]);
  });

  it("the message says what the default does, so the reviewer chooses", async () => {
    const [message] = await violations(migrationStatesPreservePeriod, TYPES.subscriptionMigration, { subscriptionId: 1 });
    expect(message).toContain("resets the billing period to today and charges the new product's full price");
  });
});

describe("migration-subscription-eligible", () => {
  table(migrationSubscriptionEligible, TYPES.subscriptionMigration, [
    ["active complies", migration(preview({ subscriptionState: "active" })), []],
    ["trialing complies", migration(preview({ subscriptionState: "trialing" })), []],
    [
      "trial_ended: the recommended path",
      migration(preview({ subscriptionState: "trial_ended" })),
      [
        new RegExp(
          `^${WHO} migrates subscription 1001, which is trial_ended: .*cancel the subscription, change its product, then reactivate it`,
        ),
      ],
    ],
    [
      "past_due: settle the balance first",
      migration(preview({ subscriptionState: "past_due" })),
      [/which is past_due: settle its balance first/],
    ],
    [
      "canceled: reactivate or start anew",
      migration(preview({ subscriptionState: "canceled" })),
      [/which is canceled: .*Reactivate it first/],
    ],
    ["no preview (deployed, or inputs unknown) is not judged", migration({}), []],
    ["a preview not known yet is not judged", migration({ preview: crossGuard.unknownObjectValue }), []],
    [
      "the subscription id unknown: still judged on the previewed state",
      migration({ ...preview({ subscriptionState: "past_due" }), subscriptionId: crossGuard.unknownNumberValue }),
      [/migrates its subscription, which is past_due/],
    ],
  ]);
});

describe("migration-charge-acknowledged", () => {
  table(migrationChargeAcknowledged, TYPES.subscriptionMigration, [
    [
      "a charge without maxChargeInCents: the amount and the exact input to add",
      migration(preview({ chargeInCents: 5000 })),
      [
        new RegExp(
          `^${WHO} would charge 5000 cents \\(50\\.00\\) \\(the service's migration preview\\), above this stack's threshold of 0 cents \\(0\\.00\\).*add maxChargeInCents: 5000 to its inputs`,
        ),
      ],
    ],
    ["maxChargeInCents equal to the charge complies", migration({ ...preview({ chargeInCents: 5000 }), maxChargeInCents: 5000 }), []],
    ["maxChargeInCents above the charge complies", migration({ ...preview({ chargeInCents: 5000 }), maxChargeInCents: 6000 }), []],
    [
      "maxChargeInCents below the charge: raise it",
      migration({ ...preview({ chargeInCents: 1250 }), maxChargeInCents: 1000 }),
      [
        /would charge 1250 cents \(12\.50\).*its maxChargeInCents is 1000 cents \(10\.00\)\. To accept this charge, set maxChargeInCents: 1250\./,
      ],
    ],
    ["no charge complies with the default threshold", migration(preview({ chargeInCents: 0 })), []],
    ["a charge at the threshold complies", migration(preview({ chargeInCents: 5000 })), [], { chargeThresholdInCents: 5000 }],
    [
      "a charge above the configured threshold: the threshold in the message",
      migration(preview({ chargeInCents: 5000 })),
      [/above this stack's threshold of 4999 cents \(49\.99\)/],
      { chargeThresholdInCents: 4999 },
    ],
    ["a preview without money fields (not readable) is not judged", migration(preview({})), []],
    ["no preview is not judged", migration({}), []],
    [
      "maxChargeInCents not known yet is not judged",
      migration({ ...preview({ chargeInCents: 5000 }), maxChargeInCents: crossGuard.unknownNumberValue }),
      [],
    ],
  ]);
});

describe("webhooks-stay-enabled-in-production", () => {
  const PROD = { production: true };
  table(webhooksStayEnabledInProduction, TYPES.webhookSettings, [
    ["off, on a stack not configured as production: not judged", { webhooksEnabled: false, disableOnDelete: true }, []],
    ["off, production: false", { webhooksEnabled: false }, [], { production: false }],
    ["on, in production", { webhooksEnabled: true, disableOnDelete: false }, [], PROD],
    ["on, disableOnDelete omitted (false), in production", { webhooksEnabled: true }, [], PROD],
    [
      "off, in production",
      { webhooksEnabled: false },
      [
        /^WebhookSettings 'webhooks' turns webhook delivery off \(webhooksEnabled: false\) on a production stack\. Set webhooksEnabled: true/,
      ],
      PROD,
    ],
    [
      "disableOnDelete, in production",
      { webhooksEnabled: true, disableOnDelete: true },
      [/^WebhookSettings 'webhooks' has disableOnDelete: true on a production stack: .*Remove disableOnDelete or set it to false/],
      PROD,
    ],
    [
      "both, in production: two violations",
      { webhooksEnabled: false, disableOnDelete: true },
      [/webhooksEnabled: false/, /disableOnDelete: true/],
      PROD,
    ],
    [
      "values not known yet are not judged",
      { webhooksEnabled: crossGuard.unknownBooleanValue, disableOnDelete: crossGuard.unknownBooleanValue },
      [],
      PROD,
    ],
  ]);
});

describe("webhook-endpoint-https", () => {
  const events = ["payment_failure"];
  table(webhookEndpointHttps, TYPES.webhookEndpoint, [
    ["https complies", { url: "https://hooks.example.com/billing", events }, []],
    ["the scheme in capitals complies", { url: "HTTPS://Hooks.Example.com/billing", events }, []],
    [
      "http is a violation naming where, not the path or query",
      { url: "http://hooks.example.com/billing?token=s3cr3t", events },
      [
        /^WebhookEndpoint 'hooks' sends webhooks to http:\/\/hooks\.example\.com\/…, which is not https: .*Set its url to an https:\/\/ address/,
      ],
    ],
    [
      "http to localhost is a violation too",
      { url: "http://127.0.0.1:8080/hooks", events },
      [/sends webhooks to http:\/\/127\.0\.0\.1:8080\/…/],
    ],
    ["not a url", { url: "hooks.example.com/billing", events }, [/^WebhookEndpoint 'hooks' has no absolute url/]],
    ["a url not known yet is not judged", { url: crossGuard.unknownStringValue, events }, []],
  ]);

  it("never repeats the url's path or query (a receiver's token may be there)", async () => {
    const [message] = await violations(webhookEndpointHttps, TYPES.webhookEndpoint, { url: "http://h.example.com/t0k3n?key=s3cr3t" });
    expect(message).not.toMatch(/t0k3n|s3cr3t/);
  });
});

describe("pricing-change-acknowledged-in-production", () => {
  const PROD = { production: true };
  /** A product as check() gives it when its pricing changes: `preview.pricingChange` with the fields' old and new values. */
  const product = (from: Record<string, unknown>, to: Record<string, unknown>, props: Record<string, unknown> = {}) => ({
    productFamily: "handle:saas",
    handle: "pro",
    name: "Pro",
    priceInCents: 4900,
    interval: 1,
    intervalUnit: "month",
    ...to,
    preview: { pricingChange: { fields: Object.keys(to), from, to, effect: "the service creates a new default price point" } },
    ...props,
  });
  const RAISE = [{ priceInCents: 4900 }, { priceInCents: 5900 }] as const;
  const PRODUCT_WHO = "Product 'pro'";
  const POINT_WHO = "ProductPricePoint 'pro-annual'";

  describe("Product", () => {
    table(pricingChangeAcknowledgedInProduction, TYPES.product, [
      ["a price change on a stack not configured as production: not judged", product(...RAISE), []],
      ["a price change, production: false", product(...RAISE), [], { production: false }],
      [
        "a price change in production, unacknowledged: the fields old → new, how the service applies it, and the input to add",
        product(...RAISE),
        [
          new RegExp(
            `^${PRODUCT_WHO} changes its pricing on a production stack: priceInCents 4900 cents \\(49\\.00\\) → 5900 cents \\(59\\.00\\)\\. ` +
              "The service applies it as a new default price point of the product: new signups get the new pricing, existing subscriptions keep theirs\\. " +
              "To make this change, add pricingChangeAcknowledged: true to its inputs \\(it changes nothing at the service\\); once it is applied, set it back to false",
          ),
        ],
        PROD,
      ],
      ["acknowledged (true) complies", product(...RAISE, { pricingChangeAcknowledged: true }), [], PROD],
      [
        "its default price point's currency amounts alone, unacknowledged: each currency old → new in its money, in place as check() said",
        product(
          { currencyPrices: { EUR: { baseline: 44 } } },
          { currencyPrices: { EUR: { baseline: 45 } } },
          {
            preview: {
              pricingChange: {
                fields: ["currencyPrices"],
                from: { currencyPrices: { EUR: { baseline: 44 } } },
                to: { currencyPrices: { EUR: { baseline: 45 } } },
                effect:
                  "in place: its default price point's prices in those currencies change in place (the product and its default stay); a currency left out keeps its prices: the service has no delete of a currency price",
              },
            },
          },
        ),
        [
          new RegExp(
            `^${PRODUCT_WHO} changes its pricing on a production stack: currencyPrices EUR baseline EUR 44\\.00 → baseline EUR 45\\.00\\. ` +
              "In place: its default price point's prices in those currencies change in place \\(the product and its default stay\\); .*\\. To make this change, add pricingChangeAcknowledged: true",
          ),
        ],
        PROD,
      ],
      [
        "a price change with its currency amounts: both listed, applied as a new default price point",
        product(
          { priceInCents: 4900, currencyPrices: { EUR: { baseline: 44 } } },
          { priceInCents: 5900, currencyPrices: { EUR: { baseline: 54 } } },
        ),
        [
          new RegExp(
            `^${PRODUCT_WHO} changes its pricing on a production stack: priceInCents 4900 cents \\(49\\.00\\) → 5900 cents \\(59\\.00\\), ` +
              "currencyPrices EUR baseline EUR 44\\.00 → baseline EUR 54\\.00\\. The service applies it as a new default price point of the product",
          ),
        ],
        PROD,
      ],
      [
        "acknowledged false: set it to true",
        product(...RAISE, { pricingChangeAcknowledged: false }),
        [/set pricingChangeAcknowledged: true \(it is false\)/],
        PROD,
      ],
      [
        "acknowledged with a non-boolean: set it to true",
        product(...RAISE, { pricingChangeAcknowledged: "yes" }),
        [/set pricingChangeAcknowledged: true \(it is "yes"\)/],
        PROD,
      ],
      [
        "the acknowledgement not known yet (an output) is not judged",
        product(...RAISE, { pricingChangeAcknowledged: crossGuard.unknownBooleanValue }),
        [],
        PROD,
      ],
      [
        "an interval, its unit and a new trial: each field old → new, absent ones as none",
        product(
          { interval: 1, trialInterval: null, trialIntervalUnit: null, trialPriceInCents: null },
          { interval: 12, trialInterval: 14, trialIntervalUnit: "day", trialPriceInCents: 0 },
        ),
        [/: interval 1 → 12, trialPriceInCents none → 0 cents \(0\.00\), trialInterval none → 14, trialIntervalUnit none → day\. /],
        PROD,
      ],
      [
        "an initial charge and an expiration",
        product(
          { initialChargeInCents: 1000, expirationIntervalUnit: "month" },
          { initialChargeInCents: 1500, expirationIntervalUnit: "never" },
        ),
        [/: initialChargeInCents 1000 cents \(10\.00\) → 1500 cents \(15\.00\), expirationIntervalUnit month → never\. /],
        PROD,
      ],
      ["no pricingChange in preview (a create, or a change of name only) is not judged", { handle: "pro", priceInCents: 5900 }, [], PROD],
      [
        "a preview without pricingChange (an adoption) is not judged",
        { handle: "pro", preview: { adopt: { id: 7, handle: "pro" } } },
        [],
        PROD,
      ],
      ["a preview not known yet is not judged", { handle: "pro", preview: crossGuard.unknownObjectValue }, [], PROD],
      ["a pricingChange whose from and to are the same is no change", product({ priceInCents: 4900 }, { priceInCents: 4900 }), [], PROD],
      [
        "fields other than pricing in from/to are not reported",
        product({ priceInCents: 4900, name: "Pro" }, { priceInCents: 5900, name: "Pro 2" }),
        [/: priceInCents 4900 cents \(49\.00\) → 5900 cents \(59\.00\)\. The service/],
        PROD,
      ],
    ]);
  });

  describe("ProductPricePoint", () => {
    const point = (props: Record<string, unknown>) => ({
      product: "handle:pro",
      handle: "pro-annual",
      name: "Annual",
      priceInCents: 49000,
      interval: 12,
      intervalUnit: "month",
      preview: { pricingChange: { fields: ["priceInCents"], from: { priceInCents: 47000 }, to: { priceInCents: 49000 } } },
      ...props,
    });
    table(pricingChangeAcknowledgedInProduction, TYPES.productPricePoint, [
      [
        "a price change in production, unacknowledged: the replacement's steps in the message",
        point({}),
        [
          new RegExp(
            `^${POINT_WHO} changes its pricing on a production stack: priceInCents 47000 cents \\(470\\.00\\) → 49000 cents \\(490\\.00\\)\\. ` +
              "It replaces the price point: the old one's handle is freed, the new one is created \\(and made the default if it is one\\), " +
              "and the old one is archived; subscriptions on the old price point keep it\\. To make this change, add pricingChangeAcknowledged: true",
          ),
        ],
        PROD,
      ],
      ["acknowledged complies", point({ pricingChangeAcknowledged: true }), [], PROD],
      ["not production: not judged", point({}), []],
      [
        "currency amounts alone, unacknowledged: each currency old → new in its money, applied in place as the provider said",
        point({
          preview: {
            pricingChange: {
              fields: ["currencyPrices"],
              from: { currencyPrices: { EUR: { baseline: 441 }, GBP: { baseline: 392 } } },
              to: { currencyPrices: { EUR: { baseline: 450 } } },
              effect: "in place: its prices in those currencies change in place (the price point stays)",
            },
          },
        }),
        [
          new RegExp(
            `^${POINT_WHO} changes its pricing on a production stack: currencyPrices EUR baseline EUR 441\\.00 → baseline EUR 450\\.00; ` +
              "GBP left out: kept: the service has no delete of a currency price\\. " +
              "In place: its prices in those currencies change in place \\(the price point stays\\)\\. To make this change, add pricingChangeAcknowledged: true",
          ),
        ],
        PROD,
      ],
      [
        "currency amounts unchanged (only the order of the map differs): not judged",
        point({
          preview: {
            pricingChange: {
              fields: ["currencyPrices"],
              from: { currencyPrices: { EUR: { baseline: 441 }, GBP: { baseline: 392 } } },
              to: { currencyPrices: { GBP: { baseline: 392 }, EUR: { baseline: 441 } } },
            },
          },
        }),
        [],
        PROD,
      ],
    ]);
  });

  // Issue 42: a component price point's tiers, a component's own pricing and a coupon's discount are what subscribers pay too.
  describe("ComponentPricePoint, Component and Coupon", () => {
    const TIERS = (first: string) => [
      { startingQuantity: 1, endingQuantity: 1000, unitPrice: first },
      { startingQuantity: 1001, unitPrice: "0.03" },
    ];
    const cpp = (props: Record<string, unknown> = {}) => ({
      component: "handle:sms",
      handle: "sms-volume",
      name: "Volume",
      pricingScheme: "volume",
      prices: TIERS("0.04"),
      preview: {
        pricingChange: {
          fields: ["prices"],
          from: { prices: TIERS("0.05") },
          to: { prices: TIERS("0.04") },
          effect: "changed in place: subscriptions on this price point pay the new prices from their next charge",
        },
      },
      ...props,
    });
    const component = (props: Record<string, unknown> = {}) => ({
      productFamily: "handle:plans",
      kind: "metered",
      handle: "sms",
      name: "SMS",
      unitName: "message",
      pricingScheme: "per_unit",
      prices: [{ startingQuantity: 1, unitPrice: "0.04" }],
      preview: {
        pricingChange: {
          fields: ["prices"],
          from: { prices: [{ startingQuantity: 1, unitPrice: "0.05" }] },
          to: { prices: [{ startingQuantity: 1, unitPrice: "0.04" }] },
        },
      },
      ...props,
    });
    const coupon = (from: Record<string, unknown>, to: Record<string, unknown>, props: Record<string, unknown> = {}) => ({
      productFamily: "handle:plans",
      code: "SPRING",
      name: "Spring",
      ...to,
      preview: { pricingChange: { fields: Object.keys(to), from, to } },
      ...props,
    });
    const cases: [string, string, Record<string, unknown>, RegExp | undefined][] = [
      [
        "a component price point's tier 0.05 → 0.04, unacknowledged",
        TYPES.componentPricePoint,
        cpp(),
        /^ComponentPricePoint 'other' changes its pricing on a production stack: prices 1–1000 \$0\.05 → \$0\.04\. The service changes the price point's prices in place: .*add pricingChangeAcknowledged: true/,
      ],
      ["the same, acknowledged", TYPES.componentPricePoint, cpp({ pricingChangeAcknowledged: true }), undefined],
      [
        "a component's own tier 0.05 → 0.04, unacknowledged",
        TYPES.component,
        component(),
        /^Component 'other' changes its pricing on a production stack: prices 1\+ \$0\.05 → \$0\.04\. The service changes its default price point's prices in place: every subscription on that price point pays the new prices/,
      ],
      ["the same, acknowledged", TYPES.component, component({ pricingChangeAcknowledged: true }), undefined],
      [
        "a coupon's amount $5.00 → $6.00, unacknowledged",
        TYPES.coupon,
        coupon({ amountInCents: 500 }, { amountInCents: 600 }),
        /^Coupon 'other' changes its pricing on a production stack: amountInCents 500 cents \(5\.00\) → 600 cents \(6\.00\)\. The service changes the coupon's discount in place/,
      ],
      [
        "a coupon's percentage 10% → 15%, unacknowledged",
        TYPES.coupon,
        coupon({ percentage: 10 }, { percentage: 15 }),
        /^Coupon 'other' changes its pricing on a production stack: percentage 10% → 15%\. /,
      ],
      [
        "a coupon's change, acknowledged",
        TYPES.coupon,
        coupon({ percentage: 10 }, { percentage: 15 }, { pricingChangeAcknowledged: true }),
        undefined,
      ],
    ];
    for (const [label, type, props, expected] of cases) {
      it(label, async () => {
        const got = await violations(pricingChangeAcknowledgedInProduction, type, props, PROD);
        if (expected === undefined) expect(got).toEqual([]);
        else {
          expect(got).toHaveLength(1);
          expect(got[0]).toMatch(expected);
        }
        // Off production nothing is judged.
        expect(await violations(pricingChangeAcknowledgedInProduction, type, props)).toEqual([]);
      });
    }
  });

  it("looks at the priced catalog kinds only", async () => {
    const props = product(...RAISE);
    for (const type of [TYPES.subscriptionMigration, TYPES.webhookSettings, TYPES.productFamily]) {
      expect(await violations(pricingChangeAcknowledgedInProduction, type, props, PROD)).toEqual([]);
    }
  });
});

describe("the provider plugin's resources", () => {
  // The same kinds, served by pulumi-resource-billing (billing-fleet's inline programs, Go or Python programs): same inputs.
  const PROD = { production: true };
  it("are judged as the dynamic resources are: WebhookSettings off in production, by either type", async () => {
    for (const type of [TYPES.webhookSettings, "billing:index:WebhookSettings"]) {
      const found = await violations(webhooksStayEnabledInProduction, type, { webhooksEnabled: false }, PROD);
      expect(found, type).toHaveLength(1);
      expect(found[0]).toMatch(/^WebhookSettings 'webhooks' turns webhook delivery off/);
    }
  });

  it("a SubscriptionMigration's charge through the plugin is stopped as the dynamic one is", async () => {
    const props = migration(preview({ chargeInCents: 5000 }));
    expect(await violations(migrationChargeAcknowledged, "billing:index:SubscriptionMigration", props)).toEqual(
      await violations(migrationChargeAcknowledged, TYPES.subscriptionMigration, props),
    );
    expect(await violations(migrationChargeAcknowledged, "billing:index:SubscriptionMigration", props)).toHaveLength(1);
  });

  it("another package's type of the same name is not judged", async () => {
    expect(await violations(webhooksStayEnabledInProduction, "other:index:WebhookSettings", { webhooksEnabled: false }, PROD)).toEqual([]);
  });
});

describe("data-kept-in-production: a CustomField's deleteData", () => {
  const PROD = { production: true };
  const field = (props: Record<string, unknown>) => ({ resourceType: "subscriptions", name: "Region", ...props });
  table(dataKeptInProduction, TYPES.customField, [
    ["deleteData, on a stack not configured as production: not judged", field({ deleteData: true }), []],
    ["no deleteData, in production", field({}), [], PROD],
    ["deleteData: false, in production", field({ deleteData: false }), [], PROD],
    [
      "deleteData, in production, with the data count the preview read",
      field({ deleteData: true, preview: { dataCount: 12 } }),
      [
        /^CustomField '[^']+' has deleteData: true on a production stack: deleting it \(a destroy, or a replacement\) would delete its values on 12 subscriptions with it, which cannot be undone\. Remove deleteData or set it to false/,
      ],
      PROD,
    ],
    [
      "deleteData on a customers' field, its count not known yet",
      field({ deleteData: true, resourceType: "customers", preview: { dataCount: crossGuard.unknownNumberValue } }),
      [/would delete its values on every customer with it/],
      PROD,
    ],
    ["deleteData not known until up: not judged", field({ deleteData: crossGuard.unknownBooleanValue }), [], PROD],
  ]);

  it("the plugin's CustomField is judged as the dynamic one is", async () => {
    const props = field({ deleteData: true, preview: { dataCount: 1 } });
    const plugin = await violations(dataKeptInProduction, "billing:index:CustomField", props, PROD);
    expect(plugin).toHaveLength(1);
    expect(plugin[0]).toMatch(/its values on 1 subscription with it/);
  });
});
