import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readInput, reviewSummary } from "../../review";

// Real output of `pulumi preview --json` (and its event stream, and a fleet report) of the examples
// against the simulator: tests/fixtures/preview/capture.ts made them, captured.json says how.
const FIXTURES = path.resolve(__dirname, "../fixtures/preview");
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), "utf8");
const summaryOf = (name: string) => reviewSummary(readInput(fixture(name), name));
const linesOf = (name: string) => summaryOf(name).split("\n");

const POLICY_NOT_IN_DOCUMENT =
  "_Policy packs: `pulumi preview --json` leaves their results out of its document; to see them here, give billing-review the event stream instead (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi preview --json`)._";
const MIGRATION_HEADER = "| Subscription | Step | From | To | Charge | Prorated adjustment | Credit applied | Payment due | Options |";
const CREATE_ROW =
  "| 1001 (active) | create | `starter` | `growth`, price point `growth-annual` | 10.00 | -5.00 | 5.00 | 5.00 | preservePeriod: true |";
const ENDPOINT_HEADER = "| Endpoint | Step | URL | Events added | Events removed |";

interface Case {
  readonly fixture: string;
  /** Lines the summary has, each exactly, in this order (others may come between). */
  readonly lines: readonly string[];
  /** Text that must appear nowhere. */
  readonly absent?: readonly string[];
}

const CATALOG_CHANGE_LINES = [
  "## Billing review: stack `production` (project `billing-environment-bootstrap`)",
  "Changes: 2 to update, 1 to replace, 3 to delete, 2 unchanged.",
  "### Catalog (6)",
  "- Product family `old-family`: **remove**",
  "  - Leaves the stack; the service keeps the family (it has no delete).",
  "- Product `basic`: **update** in place",
  "  - description: not set → The entry plan",
  "  - requireCreditCard: not set → true",
  "- Product `launch-pro`: **update** in place",
  "  - name: Launch Pro → Launch Professional",
  "  - priceInCents: \\$49.00 → \\$59.00",
  "  - As the service applies it: a new default price point; existing subscriptions keep theirs.",
  "  - Pricing change acknowledged (pricingChangeAcknowledged: true).",
  "- Product `legacy`: **archive**",
  "  - Archived: new signups can no longer choose it; its subscriptions keep it; its handle stays taken.",
  "- Price point `launch-pro-annual` of product 123: **replace**, in this order:",
  "  1. rename the old price point's handle (which frees it)",
  "  2. create the new one",
  "  3. promote it to the product's default",
  "  4. archive the old one (subscriptions on it keep it)",
  "  - priceInCents: \\$490.00 → \\$520.00",
  "  - trialInterval: 14 days → 30 days",
  "  - New signups get the new pricing (the new price point is the default); subscriptions on the old one keep theirs.",
];

const CASES: readonly Case[] = [
  // Hand-built in the shape of the captured ones (catalog-fixtures.md says how), until capture.ts captures the catalog.
  {
    fixture: "catalog-bootstrap.json",
    lines: [
      "## Billing review: stack `staging` (project `billing-environment-bootstrap`)",
      "Changes: 5 to create.",
      "### Catalog (3)",
      "- Product family `launch`: **create**: name: Launch",
      "- Product `launch-pro`: **adopt** (id 123)",
      "  - priceInCents: \\$39.00 → \\$49.00",
      "  - Adopts the existing product (id 123) instead of creating one, then converges it to the declaration.",
      "  - As the service applies it: a new default price point; existing subscriptions keep theirs.",
      "- Price point `launch-pro-annual` of a product unknown until up: **create**: name: Annual, default: false, priceInCents: \\$490.00, interval: every 12 months, trialPriceInCents: \\$0.00, trialInterval: 14 days",
      "### Subscription migrations (1)",
      // The migration targets the new product's outputs: judged at preview (the subscription is active), its charge at up.
      "| 1001 (active) | create | `starter` | unknown until up, price point unknown until up | unknown until up | unknown until up | unknown until up | unknown until up | preservePeriod: true |",
      POLICY_NOT_IN_DOCUMENT,
    ],
    absent: ["### Other changes", "not previewed", "04da6b54"],
  },
  {
    fixture: "catalog-change.json",
    lines: [...CATALOG_CHANGE_LINES, "- Price point `launch-pro-promo` of product `launch-pro`: **archive**", POLICY_NOT_IN_DOCUMENT],
    // The provider's notice of the pricing change (its stderr) is what the catalog section says already.
    absent: ["### Other changes", "### Warnings", "the service will create a new default price point and make it the default"],
  },
  {
    // The same preview as events, with the pack's mandatory violation on the unacknowledged price point, under it.
    fixture: "catalog-change.events.jsonl",
    lines: [
      CATALOG_CHANGE_LINES[0],
      CATALOG_CHANGE_LINES[1],
      "**The preview failed**: 1 error, listed under Errors.",
      ...CATALOG_CHANGE_LINES.slice(2),
      "  - Policy **mandatory** `pulumi-subscription-billing/pricing-change-acknowledged-in-production`: On a production stack, a Product or ProductPricePoint whose pricing changes sets pricingChangeAcknowledged: true. ProductPricePoint 'launch-pro-annual' changes its pricing on a production stack: priceInCents 49000 cents (490.00) → 52000 cents (520.00), trialInterval 14 → 30. It replaces the price point: the old one's handle is freed, the new one is created (and made the default if it is one), and the old one is archived; subscriptions on the old price point keep it. To make this change, add pricingChangeAcknowledged: true to its inputs (it changes nothing at the service); once it is applied, set it back to false so that the next pricing change is acknowledged on its own.",
      "- Price point `launch-pro-promo` of product `launch-pro`: **archive**",
      "### Errors",
      "- preview failed",
      "Policy packs run: `pulumi-subscription-billing` 0.3.0.",
    ],
    absent: ["### Policy violations", POLICY_NOT_IN_DOCUMENT],
  },
  {
    fixture: "migration-create.json",
    lines: [
      "## Billing review: stack `review` (project `billing-reviewed-migration`)",
      "Changes: 2 to create.",
      "### Subscription migrations (1)",
      MIGRATION_HEADER,
      "| --- | --- | --- | --- | --: | --: | --: | --: | --- |",
      CREATE_ROW,
      "Options not listed take the service's defaults: includeTrial false, includeInitialCharge false, includeCoupons true, preservePeriod false.",
      POLICY_NOT_IN_DOCUMENT,
    ],
    // The program's own info line repeats the charge; the table has it.
    absent: ["migration of subscription 1001 to growth", "The preview failed", "### Errors", "### Warnings"],
  },
  {
    fixture: "migration-create.events.jsonl",
    lines: [
      "## Billing review: stack `review` (project `billing-reviewed-migration`)",
      "Changes: 2 to create.",
      CREATE_ROW,
      "**Subscription 1001** (`subscription-1001`)",
      "- Policy **advisory** `review-fixture/migration-declares-max-charge`: A migration declares the most it may charge. declare maxChargeInCents \\| the charge a reviewer accepted",
      "Policy packs run: `review-fixture` 0.0.1.",
    ],
    // Debug events quote the serialized provider; they never reach the summary.
    absent: ["RegisterResource", "Found free variables", POLICY_NOT_IN_DOCUMENT],
  },
  {
    fixture: "migration-mandatory.events.jsonl",
    lines: [
      "**The preview failed**: 1 error, listed under Errors.",
      CREATE_ROW,
      "- Policy **mandatory** `review-fixture/migration-charge-limit`: No migration charges more than the limit. charge 1000 cents is above 0",
      "- Policy **advisory** `review-fixture/migration-declares-max-charge`: A migration declares the most it may charge. declare maxChargeInCents \\| the charge a reviewer accepted",
      "### Errors",
      "- preview failed",
      "Policy packs run: `review-fixture` 0.0.1.",
    ],
  },
  {
    // The document of the same failed preview: the CLI keeps only "preview failed", not the policy.
    fixture: "migration-mandatory.json",
    lines: ["**The preview failed**: 1 error, listed under Errors.", CREATE_ROW, "- preview failed", POLICY_NOT_IN_DOCUMENT],
    absent: ["Policy **"],
  },
  {
    fixture: "migration-over-max-charge.json",
    lines: [
      "Changes: 1 to create.",
      "**The preview failed**: 1 error, listed under Errors.",
      "### Errors",
      "- `subscription-1001` (pulumi-nodejs:dynamic/billing:SubscriptionMigration): pulumi-nodejs:dynamic/billing:SubscriptionMigration resource 'subscription-1001': property maxChargeInCents value {500} has a problem: the service previews a charge of 1000 cents (10.00) for subscription 1001, above maxChargeInCents 500 (5.00); to accept it, set maxChargeInCents: 1000",
    ],
    absent: ["### Subscription migrations"],
  },
  {
    fixture: "migration-replace.json",
    lines: [
      "Changes: 1 to replace, 1 unchanged.",
      "| 1001 (active) | replace | `growth` | `scale`, default price point | 15.00 | -10.00 | 10.00 | 5.00 | preservePeriod: true, maxChargeInCents: 50.00 |",
    ],
  },
  {
    // The check refuses the change: no step for the migration, the error names it and its property.
    fixture: "migration-same-product.json",
    lines: [
      "Changes: 1 unchanged.",
      "**The preview failed**: 1 error, listed under Errors.",
      "### Warnings",
      "- no charge preview for the migration of subscription 1001 to growth: POST /subscriptions/1001/migrations/preview.json failed with 422: The subscription is already on product 'growth'. A migration must move it to a different product; to change only the price point, change the price point instead.",
      "### Errors",
      "- `subscription-1001` (pulumi-nodejs:dynamic/billing:SubscriptionMigration): pulumi-nodejs:dynamic/billing:SubscriptionMigration resource 'subscription-1001': property productHandle value {growth} has a problem: subscription 1001 is already on product 'growth' (id 12): the service refuses a migration to the product a subscription already has. Target a different product; to move to another price point of the same product, that is a price point change, a different operation than a product migration; if nothing should change, remove this SubscriptionMigration.",
    ],
    absent: ["### Subscription migrations", "at Object.refuse", "processTicksAndRejections"],
  },
  {
    // The provider's warning arrives as its stderr (info#err, no urn): it is matched to the migration by subscription id.
    fixture: "migration-trial-ended.json",
    lines: [
      "| 1002 (trial\\_ended) | create | `starter` | `scale`, default price point | 30.00 | -5.00 | 5.00 | 25.00 | defaults |",
      "**Subscription 1002** (`subscription-1002`)",
      "- Warning: subscription 1002 is trial\\_ended: the API accepts migrating it for backwards compatibility, but the recommended path for a trial\\_ended subscription is to cancel it, change its product, then reactivate it.",
    ],
    absent: ["### Warnings", "### Errors"],
  },
  {
    fixture: "migration-missing-subscription.json",
    lines: [
      "Changes: 1 to create.",
      "**The preview failed**: 1 error, listed under Errors.",
      "- no charge preview for the migration of subscription 999999 to scale: POST /subscriptions/999999/migrations/preview.json failed with 404: Subscription not found",
      "- `subscription-999999` (pulumi-nodejs:dynamic/billing:SubscriptionMigration): pulumi-nodejs:dynamic/billing:SubscriptionMigration resource 'subscription-999999': property subscriptionId value {999999} has a problem: subscription 999999 does not exist on this site: it must be the id of one of the site's subscriptions",
    ],
  },
  {
    fixture: "webhooks-create.json",
    lines: [
      "## Billing review: stack `webhooks` (project `billing-webhook-settings`)",
      "Changes: 6 to create.",
      "### Webhooks",
      "#### Site `eu-store`",
      "- WebhookSettings `eu-store` (create): webhooksEnabled false, disableOnDelete false",
      ENDPOINT_HEADER,
      "| `eu-store-provisioning` | create | `https://provisioning.acme.example/hooks` | `subscription_state_change` |   |",
      "#### Site `us-store`",
      "- WebhookSettings `us-store` (create): webhooksEnabled true, disableOnDelete false",
      "| `us-store-dunning` | create | `https://dunning.acme.example/billing` | `payment_failure`, `renewal_failure` |   |",
      "| `us-store-provisioning` | create | `https://provisioning.acme.example/hooks` | `subscription_state_change` |   |",
    ],
    absent: ["### Subscription migrations", "### Other changes"],
  },
  {
    fixture: "webhooks-update.json",
    lines: [
      "Changes: 4 to update, 1 to delete, 1 unchanged.",
      "#### Site `eu-store`",
      "- WebhookSettings `eu-store` (update): webhooksEnabled false → true",
      "| `eu-store-provisioning` | delete (unsubscribes it from every event; the service keeps it listed) | `https://provisioning.acme.example/hooks` |   | `subscription_state_change` |",
      "#### Site `us-store`",
      "- WebhookSettings `us-store` (update): webhooksEnabled true → false",
      "| `us-store-dunning` | update | `https://dunning.acme.example/billing` | `payment_success` | `renewal_failure` |",
      "| `us-store-provisioning` | update | `https://provisioning.acme.example/hooks` → `https://provisioning.acme.example/v2/hooks` |   |   |",
    ],
  },
  {
    fixture: "fleet-preview.json",
    lines: [
      "## Billing review: fleet preview (3 sites, 1 failed)",
      "| Site | Stack | Result | Changes |",
      "| `eu-store` | `eu-store` | succeeded | 3 to create |",
      "| `gw-store` | `gw-store` | failed | not known |",
      "| `us-store` | `us-store` | succeeded | 3 to create |",
      "### Site `eu-store` (stack `eu-store`)",
      "#### Webhooks",
      "##### Default site (top-level `billing:*` config)",
      "- WebhookSettings `webhooks` (create): webhooksEnabled false",
      "| `receiver` | create | `https://hooks.acme.example/billing` | `payment_failure`, `subscription_state_change` |   |",
      "### Site `gw-store` (stack `gw-store`)",
      "**failed**: webhooks: pulumi-nodejs:dynamic/billing:WebhookSettings resource 'webhooks': property site value {\\<nil\\>} has a problem: the billing credentials are not usable: billing:apiKey: the gateway environment does not accept Basic authentication; use accessToken (or the BILLING\\_\\* environment variables)",
      "Changes: not summed up by the engine (the preview stopped early).",
      "#### Errors",
      "### Site `us-store` (stack `us-store`)",
      "- WebhookSettings `webhooks` (create): webhooksEnabled true",
    ],
    // A fleet report carries the debug events (and the provider's source inside them); none is shown.
    absent: ["RegisterResource", "exports.handler", POLICY_NOT_IN_DOCUMENT],
  },
  {
    // The package's pack given to a project without @pulumi/policy: what the launcher said is the review's first news.
    fixture: "pack-without-policy.events.jsonl",
    lines: [
      "## Billing review: preview",
      "**Nothing was planned**: the preview stopped before the engine ran. What it said before it stopped:",
      "```text",
      "pulumi-subscription-billing policy pack: cannot find @pulumi/policy from $CONSUMER/node_modules/pulumi-subscription-billing: install it in the project: npm i -D @pulumi/policy",
      "```",
      "**A policy pack it was given did not run** (1 requested, none ran): no policy judged this preview.",
    ],
    absent: ["which this input does not hold"],
  },
  {
    fixture: "pack-without-policy.json",
    lines: [
      "**Nothing was planned**: the preview stopped before the engine ran. What it said before it stopped:",
      "pulumi-subscription-billing policy pack: cannot find @pulumi/policy from $CONSUMER/node_modules/pulumi-subscription-billing: install it in the project: npm i -D @pulumi/policy",
      "**A policy pack it was given did not run**: no policy judged this preview.",
    ],
    absent: ["which this input does not hold"],
  },
];

describe("billing-review on real previews", () => {
  it.each(CASES)("$fixture", ({ fixture: name, lines, absent }) => {
    const out = linesOf(name);
    let at = -1;
    for (const line of lines) {
      const found = out.indexOf(line, at + 1);
      expect(found, `${line}\n--- in ---\n${out.join("\n")}`).toBeGreaterThan(at);
      at = found;
    }
    for (const text of ["__provider", ...(absent ?? [])]) expect(out.join("\n")).not.toContain(text);
  });

  it.each(CASES)("$fixture: every table row has as many cells as its header", ({ fixture: name }) => {
    const out = linesOf(name);
    // Cells split at `|` not escaped by a backslash.
    const cells = (l: string) => l.split(/(?<!\\)\|/).length;
    for (let i = 0; i < out.length; i++) {
      if (!out[i].startsWith("| ") || !out[i + 1]?.startsWith("| --")) continue;
      const width = cells(out[i]);
      for (let j = i + 1; j < out.length && out[j].startsWith("|"); j++) expect(cells(out[j]), out[j]).toBe(width);
    }
  });

  it.each([
    "migration-create.json",
    "webhooks-update.json",
    "migration-same-product.json",
    "catalog-change.json",
    "catalog-bootstrap.json",
  ])("%s: the same summary whatever the order of steps and diagnostics", (name) => {
    const doc = JSON.parse(fixture(name));
    const reversed = { ...doc, steps: [...(doc.steps ?? [])].reverse(), diagnostics: [...(doc.diagnostics ?? [])].reverse() };
    expect(reviewSummary(reversed)).toBe(summaryOf(name));
  });

  it("ends with exactly one newline and has no trailing spaces but in empty cells", () => {
    for (const { fixture: name } of CASES) {
      const out = summaryOf(name);
      expect(out.endsWith("\n") && !out.endsWith("\n\n"), name).toBe(true);
      for (const line of out.split("\n")) if (!line.startsWith("|")) expect(line, name).toBe(line.trimEnd());
    }
  });
});
