/**
 * The demo site (`startSimulator({ seed: "demo" })`, `billing-simulator --seed demo`).
 * Small and stable: demos, the README and tests may name these ids.
 *
 *   API key   demo_api_key  (Basic auth, password "x"; used when no apiKey is given)
 *
 *   Products (id  handle  price points, * = default)
 *     1  basic   101 basic-default*  $10/month
 *     2  pro     201 pro-monthly*    $50/month, 202 pro-annual $500/year
 *     3  launch  301 launch-default* $20/month
 *     4  (none)  401 legacy-default* $15/month   a product without a handle ("handle": null):
 *                                                reachable by id only
 *
 *   Subscriptions (all on basic, basic-default)
 *     1001  active          the one to migrate (basic → pro)
 *     1002  trialing        migrates and stays trialing
 *     1003  trial_ended     accepted for backwards compatibility; becomes active
 *     1004  canceled        refused (422 naming the state)
 *     1005  active, 3-D Secure required: 422 with an action_link; visiting it applies the migration
 *
 *   Webhooks (created 2026-10-01 … 2026-10-16, one per day, oldest first)
 *     5001–5004  successful  (1001, 1002, 1003, 1005)
 *     5005–5014  failed      all for 1001: the ones to replay
 *     5015       pending     for 1002
 *     5016       paused      for 1002
 *
 *   Webhook endpoints
 *     1  https://merchant.example.com/billing/webhooks  payment_failure, subscription_state_change  (enabled)
 *        the receiver the demo's webhooks were sent to
 *
 *   Webhook delivery starts disabled (webhooksEnabled false); the replay queue starts empty.
 */
import type { PricePointInput } from "./records";
import type { Simulator } from "./server";
import type { SubscriptionState, WebhookEventKey, WebhookStatus } from "./wire";

interface DemoProduct {
  readonly id: number;
  readonly handle: string | null;
  readonly name: string;
  readonly priceInCents: number;
  readonly pricePoints: readonly Required<
    Pick<PricePointInput, "id" | "handle" | "name" | "default" | "priceInCents" | "intervalMonths">
  >[];
}

interface DemoSubscription {
  readonly id: number;
  readonly productHandle: string;
  readonly state: SubscriptionState;
  readonly requiresAuthentication: boolean;
  readonly createdAt: string;
}

interface DemoWebhook {
  readonly id: number;
  readonly status: WebhookStatus;
  readonly subscriptionId: number;
  readonly event: string;
  readonly createdAt: string;
}

interface DemoEndpoint {
  readonly id: number;
  readonly url: string;
  readonly events: readonly WebhookEventKey[];
}

export interface DemoSite {
  readonly apiKey: string;
  readonly products: readonly DemoProduct[];
  readonly subscriptions: readonly DemoSubscription[];
  readonly webhooks: readonly DemoWebhook[];
  readonly endpoints: readonly DemoEndpoint[];
  /** Ids of the demo's failed webhooks: what a "replay the failed ones" demo queues. */
  readonly failedWebhookIds: readonly number[];
}

const day = (n: number) => `2026-10-${String(n).padStart(2, "0")}T09:00:00Z`;

const webhooks: DemoWebhook[] = [
  ...[1001, 1002, 1003, 1005].map((subscriptionId, i) => ({
    id: 5001 + i,
    status: "successful" as const,
    subscriptionId,
    event: "signup_success",
    createdAt: day(1 + i),
  })),
  ...Array.from({ length: 10 }, (_, i) => ({
    id: 5005 + i,
    status: "failed" as const,
    subscriptionId: 1001,
    event: "payment_success",
    createdAt: day(5 + i),
  })),
  { id: 5015, status: "pending", subscriptionId: 1002, event: "subscription_state_change", createdAt: day(15) },
  { id: 5016, status: "paused", subscriptionId: 1002, event: "subscription_state_change", createdAt: day(16) },
];

const subscription = (id: number, state: SubscriptionState, requiresAuthentication = false): DemoSubscription => ({
  id,
  productHandle: "basic",
  state,
  requiresAuthentication,
  createdAt: "2026-09-01T09:00:00Z",
});

export const DEMO_SITE: DemoSite = deepFreeze({
  apiKey: "demo_api_key",
  products: [
    {
      id: 1,
      handle: "basic",
      name: "Basic",
      priceInCents: 1000,
      pricePoints: [{ id: 101, handle: "basic-default", name: "Default", default: true, priceInCents: 1000, intervalMonths: 1 }],
    },
    {
      id: 2,
      handle: "pro",
      name: "Pro",
      priceInCents: 5000,
      pricePoints: [
        { id: 201, handle: "pro-monthly", name: "Monthly", default: true, priceInCents: 5000, intervalMonths: 1 },
        { id: 202, handle: "pro-annual", name: "Annual", default: false, priceInCents: 50000, intervalMonths: 12 },
      ],
    },
    {
      id: 3,
      handle: "launch",
      name: "Launch",
      priceInCents: 2000,
      pricePoints: [{ id: 301, handle: "launch-default", name: "Default", default: true, priceInCents: 2000, intervalMonths: 1 }],
    },
    {
      id: 4,
      handle: null,
      name: "Legacy",
      priceInCents: 1500,
      pricePoints: [{ id: 401, handle: "legacy-default", name: "Default", default: true, priceInCents: 1500, intervalMonths: 1 }],
    },
  ],
  subscriptions: [
    subscription(1001, "active"),
    subscription(1002, "trialing"),
    subscription(1003, "trial_ended"),
    subscription(1004, "canceled"),
    subscription(1005, "active", true),
  ],
  webhooks,
  endpoints: [{ id: 1, url: "https://merchant.example.com/billing/webhooks", events: ["payment_failure", "subscription_state_change"] }],
  failedWebhookIds: webhooks.filter((w) => w.status === "failed").map((w) => w.id),
});

export function seedDemo(sim: Pick<Simulator, "addProduct" | "addSubscription" | "addWebhook" | "addEndpoint">): void {
  for (const p of DEMO_SITE.products) sim.addProduct({ ...p, pricePoints: p.pricePoints.map((pp) => ({ ...pp })) });
  for (const s of DEMO_SITE.subscriptions) sim.addSubscription({ ...s });
  for (const w of DEMO_SITE.webhooks) sim.addWebhook({ ...w });
  for (const e of DEMO_SITE.endpoints) sim.addEndpoint({ ...e, events: [...e.events] });
}

function deepFreeze<T>(o: T): T {
  if (typeof o === "object" && o !== null) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}
