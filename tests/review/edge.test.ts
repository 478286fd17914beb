import { describe, expect, it } from "vitest";
import { reviewSummary } from "../../review";

// Edge cases built by hand, in the shapes the real previews have (see fixtures.test.ts): Go's nulls
// (`detailedDiff: null`), omitted empty fields, and unknowns as the engine writes them.

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const T = "pulumi-nodejs:dynamic/billing:";
const urn = (type: string, name: string) => `urn:pulumi:pr::billing::${type}::${name}`;
const STACK = { op: "same", urn: urn("pulumi:pulumi:Stack", "billing-pr"), detailedDiff: null };

type Inputs = Record<string, unknown>;
const step = (op: string, kind: string, name: string, news?: Inputs, olds?: Inputs, oldOutputs?: Inputs) => ({
  op,
  urn: urn(`${T}${kind}`, name),
  ...(news ? { newState: { type: `${T}${kind}`, inputs: { __provider: "exports.handler = __f0; // serialized", ...news } } } : {}),
  ...(olds
    ? { oldState: { type: `${T}${kind}`, inputs: { __provider: "exports.handler = __f0;", ...olds }, outputs: oldOutputs ?? {} } }
    : {}),
  detailedDiff: null,
});
const preview = (steps: object[], more: object = {}) => ({ steps: [STACK, ...steps], ...more });
const lines = (input: object) => reviewSummary(input).split("\n");

const PREVIEW = {
  subscriptionState: "active",
  productId: 11,
  productHandle: "starter",
  pricePointId: 110,
  chargeInCents: 123456,
  proratedAdjustmentInCents: -5,
  creditAppliedInCents: 0,
  paymentDueInCents: 99,
};

interface Case {
  readonly name: string;
  readonly input: object;
  readonly has: readonly string[];
  readonly hasNot?: readonly string[];
}

const CASES: readonly Case[] = [
  {
    name: "amounts: two decimals, sign in front, cents below one unit",
    input: preview([step("create", "SubscriptionMigration", "m", { subscriptionId: 7, productHandle: "pro", preview: PREVIEW })]),
    has: ["| 7 (active) | create | `starter`, price point 110 | `pro`, default price point | 1234.56 | -0.05 | 0.00 | 0.99 | defaults |"],
  },
  {
    name: "no preview in the inputs (the check did not read the service): not previewed, said why",
    input: preview([step("create", "SubscriptionMigration", "m", { subscriptionId: 7, productId: 12, pricePointId: 121 })]),
    has: [
      "| 7 | create | not previewed | product 12, price point 121 | not previewed | not previewed | not previewed | not previewed | defaults |",
      `Options not listed take the service's defaults: includeTrial false, includeInitialCharge false, includeCoupons true, preservePeriod false. "not previewed": the service's migration preview could not be read (see the warnings).`,
    ],
  },
  {
    name: "the service's migration preview failed: state and product known, amounts not",
    input: preview([
      step("create", "SubscriptionMigration", "m", {
        subscriptionId: 7,
        productHandle: "pro",
        preview: { subscriptionState: "trialing", productId: 11, productHandle: null, pricePointId: null },
      }),
    ]),
    has: [
      "| 7 (trialing) | create | product 11 | `pro`, default price point | not previewed | not previewed | not previewed | not previewed | defaults |",
    ],
  },
  {
    name: "unknowns as the engine writes them",
    input: preview([
      step("create", "SubscriptionMigration", "m", { subscriptionId: UNKNOWN, productHandle: UNKNOWN }),
      step("create", "WebhookEndpoint", "e", { url: UNKNOWN, events: UNKNOWN }),
      step(
        "update",
        "WebhookEndpoint",
        "f",
        { url: "https://a.example/h", events: ["payment_failure", UNKNOWN] },
        { url: "https://a.example/h", events: ["payment_failure"] },
      ),
    ]),
    has: [
      // The target waits on outputs: its amounts are previewed at up, which the table says instead of "not previewed".
      "| unknown until up | create | not previewed | unknown until up, default price point | unknown until up | unknown until up | unknown until up | unknown until up | defaults |",
      "| `e` | create | unknown until up | unknown until up |   |",
      "| `f` | update | `https://a.example/h` | unknown until up | unknown until up |",
    ],
    hasNot: [UNKNOWN],
  },
  {
    name: "options set, maxChargeInCents as an amount, a site column when a migration names one",
    input: preview([
      step("create", "SubscriptionMigration", "m", {
        subscriptionId: 8,
        productHandle: "pro",
        pricePointHandle: "pro-annual",
        includeTrial: true,
        includeCoupons: false,
        preservePeriod: true,
        maxChargeInCents: 5000,
        site: "us-store",
        preview: PREVIEW,
      }),
    ]),
    has: [
      "| Subscription | Site | Step | From | To | Charge | Prorated adjustment | Credit applied | Payment due | Options |",
      "| 8 (active) | `us-store` | create | `starter`, price point 110 | `pro`, price point `pro-annual` | 1234.56 | -0.05 | 0.00 | 0.99 | includeTrial: true, includeCoupons: false, preservePeriod: true, maxChargeInCents: 50.00 |",
    ],
  },
  {
    name: "a delete sends nothing: amounts n/a, the product as recorded",
    input: preview([
      step(
        "delete",
        "SubscriptionMigration",
        "m",
        undefined,
        { subscriptionId: 9, productHandle: "pro", preview: PREVIEW },
        {
          productId: 12,
          productHandle: "pro",
          pricePointId: 120,
        },
      ),
    ]),
    has: ["| 9 | delete | `pro`, price point 120 (as recorded) | `pro`, default price point | n/a | n/a | n/a | n/a | defaults |"],
  },
  {
    name: "an update (maxChargeInCents alone) rewrites the record: amounts n/a",
    input: preview([
      step(
        "update",
        "SubscriptionMigration",
        "m",
        { subscriptionId: 9, productHandle: "pro", maxChargeInCents: 100 },
        { subscriptionId: 9, productHandle: "pro" },
        { productId: 12, productHandle: "pro", pricePointId: null },
      ),
    ]),
    has: ["| 9 | update | `pro` (as recorded) | `pro`, default price point | n/a | n/a | n/a | n/a | maxChargeInCents: 1.00 |"],
  },
  {
    name: "an event stream's replacement halves are one replace; same steps are not listed",
    input: preview([
      step(
        "create-replacement",
        "WebhookEndpoint",
        "e",
        { url: "https://b.example/h", events: ["a"], site: "x" },
        { url: "https://b.example/h", events: ["a"], site: "y" },
      ),
      step(
        "replace",
        "WebhookEndpoint",
        "e",
        { url: "https://b.example/h", events: ["a"], site: "x" },
        { url: "https://b.example/h", events: ["a"], site: "y" },
      ),
      step("delete-replaced", "WebhookEndpoint", "e", undefined, { url: "https://b.example/h", events: ["a"], site: "y" }),
      step("same", "WebhookSettings", "s", { webhooksEnabled: true }, { webhooksEnabled: true }),
    ]),
    has: ["#### Site `x`", "| `e` | replace | `https://b.example/h` |   |   |"],
    hasNot: ["create-replacement", "delete-replaced", "WebhookSettings"],
  },
  {
    name: "settings: a delete with disableOnDelete turns webhooks off; default site first",
    input: preview([
      step("delete", "WebhookSettings", "z", undefined, { webhooksEnabled: true, disableOnDelete: true, site: "eu" }),
      step(
        "update",
        "WebhookSettings",
        "a",
        { webhooksEnabled: true, disableOnDelete: true },
        { webhooksEnabled: true, disableOnDelete: false },
      ),
    ]),
    has: [
      "#### Default site (top-level `billing:*` config)",
      "- WebhookSettings `a` (update): disableOnDelete false → true",
      "#### Site `eu`",
      "- WebhookSettings `z` (delete): turns webhooks off (disableOnDelete)",
    ],
  },
  {
    name: "other resources: name, type and step; the stack and providers are not changes",
    input: preview([
      step("create", "WebhookReplay", "failed-webhooks", { selector: { status: "failed" } }),
      { op: "create", urn: urn("pulumi:providers:pulumi-nodejs", "default"), detailedDiff: null },
    ]),
    has: ["### Other changes", "| `failed-webhooks` | `pulumi-nodejs:dynamic/billing:WebhookReplay` | create |"],
    hasNot: ["pulumi:providers", "pulumi:pulumi:Stack"],
  },
  {
    name: "other resources: a provider plugin's resource under the type its program declared, not its dynamic twin's",
    input: preview([
      { op: "create", urn: urn("billing:index:WebhookReplay", "replay"), newState: { type: "billing:index:WebhookReplay", inputs: {} } },
      { op: "create", urn: urn("billing:index:WebhookReplay", "urn-only"), detailedDiff: null },
      { op: "create", urn: urn("pulumi:providers:billing", "default_0_1_0"), detailedDiff: null },
    ]),
    has: [
      "### Other changes",
      "| `replay` | `billing:index:WebhookReplay` | create |",
      "| `urn-only` | `billing:index:WebhookReplay` | create |",
    ],
    hasNot: ["pulumi-nodejs:dynamic", "pulumi:providers"],
  },
  {
    name: "Markdown in values is inert: a handle with | keeps the table, emphasis and html are escaped",
    input: preview([
      step("create", "SubscriptionMigration", "m`x", {
        subscriptionId: 3,
        productHandle: "a|b*c",
        preview: { ...PREVIEW, productHandle: "<b>old</b>_`x`" },
      }),
      step("create", "WebhookEndpoint", "e", { url: "https://h.example/a|b", events: ["x|y"] }),
    ]),
    has: [
      "| 3 (active) | create | `` <b>old</b>_`x` ``, price point 110 | `a\\|b*c`, default price point | 1234.56 | -0.05 | 0.00 | 0.99 | defaults |",
      "| `e` | create | `https://h.example/a\\|b` | `x\\|y` |   |",
    ],
  },
  {
    name: "warnings: by urn, or naming the subscription; others listed apart; info and debug left out",
    input: preview(
      [
        step("create", "SubscriptionMigration", "m1", { subscriptionId: 1, productHandle: "pro", preview: PREVIEW }),
        step("create", "SubscriptionMigration", "m2", { subscriptionId: 12, productHandle: "pro", preview: PREVIEW }),
      ],
      {
        diagnostics: [
          { urn: urn(`${T}SubscriptionMigration`, "m2"), message: "warning: by urn\n", severity: "warning" },
          { message: "warning: subscription 1 is trial_ended\n\n", severity: "info#err" },
          { message: "warning: subscription 123 is unrelated\n", severity: "info#err" },
          { message: "    at Object.refuse (x.ts:1:1)\n", severity: "info#err" },
          { message: "charge line\n", severity: "info" },
          { message: "RegisterResource RPC finished: __provider\n", severity: "debug" },
          { message: "a warning of the program\n", severity: "warning" },
          // Go omits an empty severity and message.
          {},
        ],
      },
    ),
    has: [
      "**Subscription 1** (`m1`)",
      "- Warning: subscription 1 is trial\\_ended",
      "**Subscription 12** (`m2`)",
      "- Warning: by urn",
      "### Warnings",
      "- a warning of the program",
      "- subscription 123 is unrelated",
    ],
    hasNot: ["Object.refuse", "charge line", "RegisterResource", "The preview failed"],
  },
  {
    name: "a fleet report: sites sorted, a failed site without a preview, a skipped one, shard and file",
    input: {
      kind: "billing-fleet-report",
      version: 1,
      operation: "preview",
      fleetFile: "fleet.yaml",
      shard: { index: 1, count: 3 },
      startedAt: "2026-01-01T00:00:00Z",
      finishedAt: "2026-01-01T00:01:00Z",
      sites: [
        { name: "b", stack: "b", result: "failed", changes: {}, changed: 0, durationMs: 5, error: "connect ECONNREFUSED 127.0.0.1:1" },
        {
          name: "a",
          stack: "org/p/a",
          result: "succeeded",
          changes: { same: 2 },
          changed: 0,
          durationMs: 5,
          preview: { changeSummary: { same: 2 } },
        },
        { name: "c", stack: "c", result: "skipped", changes: { same: 1 }, changed: 0, durationMs: 0 },
      ],
    },
    has: [
      "## Billing review: fleet preview (3 sites, 1 failed)",
      "Fleet file `fleet.yaml`, shard 2 of 3.",
      "| `a` | `org/p/a` | succeeded | 2 unchanged |",
      "| `b` | `b` | failed | not known |",
      "| `c` | `c` | skipped | 1 unchanged |",
      "### Site `a` (stack `org/p/a`)",
      "Changes: 2 unchanged.",
      "### Site `b` (stack `b`)",
      "**failed**: connect ECONNREFUSED 127.0.0.1:1",
      "No preview was recorded for this site.",
      "### Site `c` (stack `c`)",
    ],
  },
  {
    name: "`{}`, what the CLI prints when a preview stops before the engine runs",
    input: {},
    has: [
      "## Billing review: preview",
      "**Nothing was planned**: the preview stopped before the engine ran (its error is on the CLI's stderr, which this input does not hold).",
    ],
  },
  {
    name: "policy violations on resources that are not migrations, deduplicated, mandatory first",
    input: preview([step("create", "WebhookSettings", "w", { webhooksEnabled: false })], {
      policyViolations: [
        {
          urn: urn(`${T}WebhookSettings`, "w"),
          policyPackName: "p",
          policyName: "webhooks-on",
          enforcementLevel: "advisory",
          message: "keep them on",
        },
        {
          urn: urn(`${T}WebhookSettings`, "w"),
          policyPackName: "p",
          policyName: "webhooks-on",
          enforcementLevel: "advisory",
          message: "keep them on",
        },
        { policyPackName: "p", policyName: "stack", enforcementLevel: "mandatory", message: "a stack rule" },
      ],
    }),
    has: [
      "### Policy violations",
      "- Policy **mandatory** `p/stack`: a stack rule",
      "- Policy **advisory** `p/webhooks-on` on `w`: keep them on",
    ],
  },
];

describe("billing-review edge cases", () => {
  it.each(CASES)("$name", ({ input, has, hasNot }) => {
    const out = lines(input);
    for (const line of has) expect(out, `${line}\n--- in ---\n${out.join("\n")}`).toContain(line);
    for (const text of ["__provider", "exports.handler", ...(hasNot ?? [])]) expect(out.join("\n")).not.toContain(text);
  });

  it("the policy results are said to be missing from a document, not from a fleet report", () => {
    expect(reviewSummary(preview([]))).toContain("leaves their results out of its document");
    const fleet = { kind: "billing-fleet-report", version: 1, operation: "preview", sites: [{ name: "a", preview: preview([]) }] };
    expect(reviewSummary(fleet)).not.toContain("leaves their results out");
  });
});

describe("billing-review of the provider plugin's resources", () => {
  // billing-fleet's inline programs, and Go or Python programs, declare the kinds through pulumi-resource-billing
  // (billing:index:<Kind>): every case above, so declared, reads the same, but for the type an "Other changes" row names.
  const viaPlugin = (input: object) => JSON.parse(JSON.stringify(input).replaceAll(T, "billing:index:"));
  it.each(CASES.filter((c) => JSON.stringify(c.input).includes(T)))("$name", ({ input }) => {
    const plugin = viaPlugin(input);
    expect(JSON.stringify(plugin)).not.toContain(T);
    expect(reviewSummary(plugin)).toBe(reviewSummary(input).replaceAll(T, "billing:index:"));
  });
});
