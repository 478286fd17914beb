import { randomUUID } from "node:crypto";
import { Pool } from "undici";
import { pack } from "../scripts/plugin-pack";
import { BillingClient, type PricePointInput } from "../sdk";
import { startSimulator } from "../simulator";
import { cliRow, cliSideBySide, noopProgram, project } from "./cli";
import { AUTH, KEY, remoteSimulator } from "./replay";
import { interleave, median, type Row, ratioOf, time } from "./stats";

const VERSION: string = require("../package.json").version;
const PRODUCTS = 33;
const POINTS_PER_PRODUCT = 2;
export const OBJECTS = 1 + PRODUCTS + PRODUCTS * POINTS_PER_PRODUCT;

/**
 * A catalog of `1 + 3 × products` objects: a family, `products` products in it, two price points each, every
 * reference an output (family → products → price points). Handles carry the stack's name: archiving does not
 * free a handle, and each fresh stack must create, not adopt. `sdk: "plugin"` declares it through the provider
 * plugin's generated Node.js SDK (no `__provider`; a price point names its product by its `productId` output, the
 * SDK's input being an id, so the chain of outputs is the same). The stack's `bump` config adds to the first
 * product's price: the one-price change of figure 8's size series.
 */
export function catalogProgram(products: number, sdk: "dynamic" | "plugin"): string {
  const [load, ns, product] =
    sdk === "plugin"
      ? [`const billing = require("pulumi-subscription-billing/billing");`, "billing.", "product.productId"]
      : [`const billing = require("pulumi-subscription-billing");`, "billing.", "product"];
  return `const pulumi = require("@pulumi/pulumi");
${load}
const s = pulumi.getStack();
const bump = Number(new pulumi.Config().get("bump") ?? 0);
const family = new ${ns}ProductFamily("plans", { handle: s + "-plans", name: "Plans" });
for (let i = 0; i < ${products}; i++) {
  const product = new ${ns}Product("product-" + i, {
    productFamily: family.familyId, handle: s + "-product-" + i, name: "Product " + i,
    priceInCents: 1000 + i + (i === 0 ? bump : 0), interval: 1, intervalUnit: "month",
  });
  for (let j = 0; j < ${POINTS_PER_PRODUCT}; j++)
    new ${ns}ProductPricePoint("price-" + i + "-" + j, {
      product: ${product}, handle: s + "-product-" + i + "-" + j, name: "Price " + j,
      priceInCents: 10000 + 100 * i + j, interval: 12, intervalUnit: "month",
    });
}
`;
}

/** Figure 8's catalog of 100 objects through the dynamic providers. */
export const CATALOG_PROGRAM = catalogProgram(PRODUCTS, "dynamic");
/** The same catalog through the provider plugin and its generated SDK. */
export const PLUGIN_CATALOG_PROGRAM = catalogProgram(PRODUCTS, "plugin");

/**
 * Figure 8: `pulumi up` of a 100-object catalog (ProductFamily, Products, ProductPricePoints)
 * against `pulumi up` of 100 no-op dynamic resources, same CLI, interleaved, fresh stacks each
 * repetition (the harness of figure 5); first with the package's dynamic resources, then with the
 * provider plugin (installed from its tarball, as in figure 7) and the generated SDK, against the
 * same no-op resources. Each comparison has a fresh simulator: its stacks are named s0, s1, … again,
 * and the handles (which carry the stack's name) must be free.
 */
export async function catalogCliFigure(o: { repeats: number }): Promise<Row[]> {
  const reference = { dir: project(`noop-${OBJECTS}`, noopProgram(OBJECTS)) };
  const up = async (name: string, program: string, plugins?: { name: string; version: string; tarball: string }[]) => {
    const sim = await startSimulator({ apiKey: KEY, logBodies: false, maxConcurrent: 1000 });
    try {
      const config = [
        { key: "billing:baseUrl", value: sim.url, secret: false },
        { key: "billing:apiKey", value: KEY },
      ];
      const [ups] = await cliSideBySide({
        candidate: { dir: project(name, program), config },
        reference,
        commands: [["up", "--yes", "--skip-preview"]],
        repeats: o.repeats,
        plugins,
      });
      return ups;
    } finally {
      await sim.close();
    }
  };
  const dynamic = await up("catalog", CATALOG_PROGRAM);
  const plugin = await up("catalog-plugin", PLUGIN_CATALOG_PROGRAM, [{ name: "billing", version: VERSION, tarball: pack() }]);
  const noop = `${OBJECTS} no-op dynamic resources`;
  return [
    cliRow(
      "8",
      `pulumi up, ${OBJECTS}-object catalog (1 ProductFamily, ${PRODUCTS} Products, ${PRODUCTS * POINTS_PER_PRODUCT} ProductPricePoints)`,
      noop,
      dynamic,
      1.15,
    ),
    cliRow("8", "pulumi up, the same catalog through the provider plugin (generated SDK, no __provider)", noop, plugin, 1.15),
  ];
}

const POINTS = 200;
const CONCURRENCY = 4;

/**
 * Figure 9: the SDK creating 200 price points of a product (`createPricePoints`, at most the client's
 * maxConcurrency = 4 in flight) against bare undici requests, the same POSTs (bodies in the SDK's
 * shape, a fresh uniqueness_token each, the same auth header) with 4 in flight, interleaved. The
 * simulator runs in its own process (as figure 2), answers each request after `latencyMs` and admits
 * 4 at a time. Each contender creates on a fresh product, made beforehand outside the timing.
 */
export async function pricePointsFigure(o: { repeats: number; warmup: number; latencyMs: number }): Promise<Row[]> {
  const sim = await remoteSimulator(["--api-key", KEY, "--latency", String(o.latencyMs)]);
  const billing = new BillingClient({ baseUrl: sim.url, apiKey: KEY });
  const pool = new Pool(sim.url, { connections: CONCURRENCY });
  const inputs: PricePointInput[] = Array.from({ length: POINTS }, (_, i) => ({
    handle: `annual-${i}`,
    name: `Annual ${i}`,
    priceInCents: 10_000 + i,
    interval: 12,
    intervalUnit: "month",
  }));
  // The SDK's body of each create (pricePointCreateBody), key for key.
  const bodies = () =>
    inputs.map((p) =>
      JSON.stringify({
        price_point: {
          name: p.name,
          handle: p.handle,
          price_in_cents: p.priceInCents,
          interval: p.interval,
          interval_unit: p.intervalUnit,
        },
        uniqueness_token: randomUUID(),
      }),
    );
  let n = 0;
  try {
    const family = await billing.createProductFamily({ handle: "bench-plans", name: "Bench plans" });
    const product = () =>
      billing.createProduct(family.id, {
        handle: `bench-${n}`,
        name: `Bench ${n++}`,
        priceInCents: 1000,
        interval: 1,
        intervalUnit: "month",
      });
    const sdk = async () => {
      const { id } = await product();
      let made = 0;
      const t = await time(async () => {
        made = (await billing.createPricePoints(id, inputs)).length;
      });
      if (made !== POINTS) throw new Error(`SDK created ${made} price points`);
      return t;
    };
    const bare = async () => {
      const { id } = await product();
      const b = bodies();
      const path = `/products/${id}/price_points.json`;
      let made = 0;
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < b.length; i = next++) {
          const res = await pool.request({
            method: "POST",
            path,
            headers: { accept: "application/json", authorization: AUTH, "content-type": "application/json" },
            body: b[i],
          });
          const parsed = JSON.parse(await res.body.text());
          if (res.statusCode !== 201 || typeof parsed.price_point?.id !== "number") throw new Error(`${path}: ${res.statusCode}`);
          made++;
        }
      };
      const t = await time(() => Promise.all(Array.from({ length: CONCURRENCY }, worker)));
      if (made !== POINTS) throw new Error(`bare undici created ${made} price points`);
      return t;
    };
    const p = await interleave(o.repeats, o.warmup, sdk, bare);
    const r = ratioOf(p);
    const ms = (xs: number[]) => `${median(xs).toFixed(0)} ms`;
    const at = o.latencyMs > 0 ? `, ${o.latencyMs} ms per request` : ", answered at once";
    return [
      {
        figure: "9",
        candidate: `SDK createPricePoints, ${POINTS} price points${at} (${ms(p.candidate)})`,
        reference: `bare undici Pool, same ${POINTS} POSTs, ${CONCURRENCY} in flight (${ms(p.reference)})`,
        value: `${r.ratio.toFixed(2)}×`,
        spread: r.spread,
        repeats: String(r.n),
        target: "≤ 1.1×",
        met: r.ratio <= 1.1,
      },
    ];
  } finally {
    await billing.close();
    await pool.close();
    sim.close();
  }
}
