import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { Pool } from "undici";
import { subscriptionMigrationProvider, webhookSettingsProvider } from "../provider";
import { migrationBodyOf } from "../sdk";
import { type Simulator, startSimulator } from "../simulator";
import { interleave, median, type Row, ratioOf, time } from "./stats";
import { loopbackAgent, throwawayCertificate } from "./tls";

const KEY = "bench_key";
/**
 * Repetitions run and discarded first: the steady state is what is compared. With one (100 calls), the
 * provider's longer path (validation, zod parses) was still being optimised while the bare request was not.
 */
const WARMUP = 10;
const AUTH = `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`;
const HEADERS = { authorization: AUTH, accept: "application/json", "content-type": "application/json" };

function seed(sim: Simulator): void {
  sim.addProduct({ id: 1, handle: "basic" });
  sim.addProduct({ id: 2, handle: "pro" });
}
const fresh = (sim: Simulator, n: number) =>
  Array.from({ length: n }, () => sim.addSubscription({ productHandle: "basic", state: "active" }).id);

async function providerOf<P extends pulumi.dynamic.ResourceProvider>(exported: P, baseUrl: string): Promise<P> {
  const p = { ...exported } as P;
  await p.configure!({
    config: { get: (k: string) => (({ "billing:baseUrl": baseUrl, "billing:apiKey": KEY }) as Record<string, string>)[k] },
  } as never);
  return p;
}

/**
 * Figure 1: one provider operation vs a bare undici request of the same bytes
 * to the same simulator, and vs the vendor SDK. A sample is the mean of `calls`
 * sequential calls; candidate and reference samples alternate.
 */
export async function perCallFigure(o: { repeats: number; calls: number }): Promise<Row[]> {
  const rows: Row[] = [];
  const sim = await startSimulator({ apiKey: KEY, logBodies: false, maxConcurrent: 1000 });
  seed(sim);
  const pool = new Pool(sim.url, { connections: 4 });
  const bare = async (method: "GET" | "PUT" | "POST", path: string, body?: string) => {
    const res = await pool.request({ method, path, headers: HEADERS, body });
    const parsed = JSON.parse(await res.body.text());
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
    return parsed;
  };
  const settings = await providerOf(webhookSettingsProvider, sim.url);
  const migrations = await providerOf(subscriptionMigrationProvider, sim.url);
  const block = async (fn: (i: number) => Promise<unknown>) =>
    (await time(async () => {
      for (let i = 0; i < o.calls; i++) await fn(i);
    })) / o.calls;
  const migrationBody = (id: number) =>
    JSON.stringify({ migration: migrationBodyOf(id, { productHandle: "pro" }).body, uniqueness_token: randomUUID() });
  // The candidates, the same on both simulators: alternate the setting; migrate fresh subscriptions.
  const settingsUpdates = (p: pulumi.dynamic.ResourceProvider) => () =>
    block((i) => p.update!("site", { webhooksEnabled: i % 2 === 1, appliedAt: "x" }, { webhooksEnabled: i % 2 === 0 }));
  const migrationCreates = (on: Simulator, p: pulumi.dynamic.ResourceProvider) => () => {
    const ids = fresh(on, o.calls);
    return block((i) => p.create({ subscriptionId: ids[i], productHandle: "pro" }));
  };

  try {
    const put = await interleave(o.repeats, WARMUP, settingsUpdates(settings), () =>
      block((i) => bare("PUT", "/webhooks/settings.json", JSON.stringify({ webhooks_enabled: i % 2 === 0 }))),
    );
    // The same requests a safe migration makes: read the subscription (its state decides eligibility), migrate,
    // read the product (its default price point, absent from the migration's answer as from most of the service's).
    const post = await interleave(o.repeats, WARMUP, migrationCreates(sim, migrations), () => {
      const ids = fresh(sim, o.calls);
      return block(async (i) => {
        await bare("GET", `/subscriptions/${ids[i]}.json`);
        await bare("POST", `/subscriptions/${ids[i]}/migrations.json`, migrationBody(ids[i]));
        await bare("GET", "/products/2.json");
      });
    });
    const r1 = ratioOf(put);
    const r2 = ratioOf(post);
    const us = (xs: number[]) => `${(median(xs) * 1000).toFixed(0)} µs`;
    rows.push(
      {
        figure: "1",
        candidate: `WebhookSettings update (${us(put.candidate)})`,
        reference: `bare undici PUT, same bytes (${us(put.reference)})`,
        value: `${r1.ratio.toFixed(2)}×`,
        spread: r1.spread,
        repeats: `${r1.n}×${o.calls}`,
        target: "≤ 1.2×",
        met: r1.ratio <= 1.2,
      },
      {
        figure: "1",
        candidate: `SubscriptionMigration create (${us(post.candidate)})`,
        reference: `bare undici GET + POST + GET, same requests (${us(post.reference)})`,
        value: `${r2.ratio.toFixed(2)}×`,
        spread: r2.spread,
        repeats: `${r2.n}×${o.calls}`,
        target: "≤ 1.2×",
        met: r2.ratio <= 1.2,
      },
    );
  } finally {
    await pool.close();
    await sim.close();
  }

  // The vendor SDK only speaks https to https://{site}.chargify.com: both sides go over the same TLS simulator.
  const cert = throwawayCertificate();
  const tlsSim = await startSimulator({ apiKey: KEY, logBodies: false, maxConcurrent: 1000, tls: cert });
  seed(tlsSim);
  const previous = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  // Our SDK has no CA option: trust the throwaway certificate for this process while measuring.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  const vendor = await import("@maxio-com/advanced-billing-sdk");
  const agent = loopbackAgent(Number(new URL(tlsSim.url).port), cert.cert);
  const client = new vendor.Client({
    site: "bench",
    environment: vendor.Environment.US,
    timeout: 30_000,
    basicAuthCredentials: { username: KEY, password: "x" },
    httpClientOptions: { httpsAgent: agent, retryConfig: { maxNumberOfRetries: 0 } },
  });
  const webhooks = new vendor.WebhooksController(client);
  const products = new vendor.SubscriptionProductsController(client);
  const subscriptions = new vendor.SubscriptionsController(client);
  const catalogue = new vendor.ProductsController(client);
  const settingsTls = await providerOf(webhookSettingsProvider, tlsSim.url);
  const migrationsTls = await providerOf(subscriptionMigrationProvider, tlsSim.url);
  try {
    const put = await interleave(o.repeats, WARMUP, settingsUpdates(settingsTls), () =>
      block((i) => webhooks.enableWebhooks({ webhooksEnabled: i % 2 === 0 })),
    );
    const post = await interleave(o.repeats, WARMUP, migrationCreates(tlsSim, migrationsTls), () => {
      const ids = fresh(tlsSim, o.calls);
      return block(async (i) => {
        await subscriptions.readSubscription(ids[i]);
        await products.migrateSubscriptionProduct(ids[i], {
          migration: {
            productHandle: "pro",
            includeTrial: false,
            includeInitialCharge: false,
            includeCoupons: true,
            preservePeriod: false,
          },
        });
        await catalogue.readProduct(2);
      });
    });
    const r1 = ratioOf(put);
    const r2 = ratioOf(post);
    rows.push(
      {
        figure: "1",
        candidate: "WebhookSettings update, over TLS",
        reference: "vendor SDK enableWebhooks, same TLS simulator",
        value: `${r1.ratio.toFixed(2)}×`,
        spread: r1.spread,
        repeats: `${r1.n}×${o.calls}`,
        target: "< 1× (faster)",
        met: r1.ratio < 1,
      },
      {
        figure: "1",
        candidate: "SubscriptionMigration create, over TLS",
        reference: "vendor SDK readSubscription + migrateSubscriptionProduct + readProduct, same TLS simulator",
        value: `${r2.ratio.toFixed(2)}×`,
        spread: r2.spread,
        repeats: `${r2.n}×${o.calls}`,
        target: "< 1× (faster)",
        met: r2.ratio < 1,
      },
    );
  } finally {
    agent.destroy();
    if (previous === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previous;
    await tlsSim.close();
  }
  return rows;
}
