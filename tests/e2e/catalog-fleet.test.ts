import assert from "node:assert/strict";
import { cp, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createWorkspace, type Workspace } from "../../scripts/lib/pulumi-cli";
import { type Simulator, startSimulator } from "../../simulator";
import { byResult, type FleetRun, runFleet } from "./fleet-support";
import { type Consumer, installedConsumer, mutations, ROOT } from "./support";

/**
 * The same catalog program against two sites, through `billing-fleet` as a user runs it: the program is
 * examples/environment-bootstrap's (a family, the launch product, its annual price point, before the
 * webhooks and migrations), a project directory each site's stack runs. Handles carry the catalog across
 * sites and ids do not: one site was used before (a family and products made in its web UI), so the
 * ids it gives differ from the fresh one's. A second preview changes nothing.
 */
const SITES = ["fresh", "used"] as const;
type SiteName = (typeof SITES)[number];
const KEYS: Record<SiteName, string> = { fresh: "sk_e2e_catalog_fleet_fresh_61c2", used: "sk_e2e_catalog_fleet_used_9e07" };
const RECEIVER = "https://hooks.catalog-fleet.example/billing";

/** What a site's catalog holds, read from the simulator over its API: each object by handle, with its id. */
interface Catalog {
  families: Record<string, number>;
  products: Record<string, { id: number; family: string | undefined }>;
  /** By `<product>/<price point>`. */
  pricePoints: Record<string, { id: number; type: string }>;
}

async function catalogOf(sim: Simulator, key: string): Promise<Catalog> {
  const headers = { authorization: `Basic ${Buffer.from(`${key}:x`).toString("base64")}`, accept: "application/json" };
  const get = async <T>(p: string): Promise<T> => {
    const res = await fetch(`${sim.url}${p}`, { headers });
    assert.equal(res.status, 200, `GET ${p}`);
    return (await res.json()) as T;
  };
  const families = await get<{ product_family: { id: number; handle: string } }[]>("/product_families.json");
  const products = await get<{ product: { id: number; handle: string; product_family?: { handle?: string } } }[]>(
    "/products.json?include_archived=true",
  );
  const out: Catalog = {
    families: Object.fromEntries(families.map(({ product_family: f }) => [f.handle, f.id])),
    products: Object.fromEntries(products.map(({ product: p }) => [p.handle, { id: p.id, family: p.product_family?.handle }])),
    pricePoints: {},
  };
  for (const { product: p } of products) {
    const { price_points } = await get<{ price_points: { id: number; handle: string; type: string }[] }>(
      `/products/${p.id}/price_points.json?include_archived=true`,
    );
    for (const pp of price_points) out.pricePoints[`${p.handle}/${pp.handle}`] = { id: pp.id, type: pp.type };
  }
  return out;
}

/** The part of a catalog the program declares. */
const declared = (c: Catalog) => ({
  family: c.families.plans,
  product: c.products.launch,
  defaultPricePoint: Object.entries(c.pricePoints).find(([k, v]) => k.startsWith("launch/") && v.type === "default")?.[1],
  annual: c.pricePoints["launch/launch-annual"],
});

describe("the bootstrap example's catalog on two sites through billing-fleet: same handles, different ids", function () {
  this.timeout(900_000);
  let c: Consumer;
  let ws: Workspace;
  let dir: string;
  let runs = 0;
  const sims = {} as Record<SiteName, Simulator>;
  const outputs: string[] = [];

  async function fleet(args: string[]): Promise<FleetRun> {
    const r = await runFleet([...args, "--plain"], {
      consumerDir: c.dir,
      fleetFile: path.join(dir, "fleet.yaml"),
      reportFile: path.join(dir, `report-${runs++}.json`),
      env: {
        ...ws.env,
        // The example is a project directory: its language host compiles it; type checking is the unit tests' job.
        PULUMI_NODEJS_TRANSPILE_ONLY: "true",
        FRESH_API_KEY: KEYS.fresh,
        USED_API_KEY: KEYS.used,
      },
    });
    outputs.push(r.stdout, r.stderr, JSON.stringify(r.report));
    return r;
  }

  before(async () => {
    c = await installedConsumer();
    ws = await createWorkspace(c.bin);
    dir = path.join(c.dir, "catalog-fleet");
    // The example as it is published: its project file and program, modules from the consumer's node_modules.
    await mkdir(path.join(dir, "environment-bootstrap"), { recursive: true });
    for (const f of ["Pulumi.yaml", "index.ts"])
      await cp(path.join(ROOT, "examples/environment-bootstrap", f), path.join(dir, "environment-bootstrap", f));
    for (const name of SITES) sims[name] = await startSimulator({ apiKey: KEYS[name] });
    // The used site's web UI made a family and three products before: its next ids are past the fresh site's.
    sims.used.addProductFamily({ handle: "legacy", name: "Legacy" });
    for (const handle of ["starter", "basic", "team"]) sims.used.addProduct({ handle, familyHandle: "legacy" });
    const sites = SITES.map(
      (name) =>
        `  - name: ${name}\n    config:\n      billing:baseUrl: ${sims[name].url}\n    secrets:\n      billing:apiKey: ${name.toUpperCase()}_API_KEY\n`,
    ).join("");
    await writeFile(
      path.join(dir, "fleet.yaml"),
      [
        "program: ./environment-bootstrap",
        "config:",
        `  bootstrap:webhookReceiver: ${RECEIVER}`,
        "  bootstrap:subscriptions: []",
        "sites:",
        sites,
      ].join("\n"),
    );
  });

  after(async () => {
    for (const s of Object.values(sims)) await s.close().catch(() => undefined);
    await ws?.dispose();
  });

  it("up builds the same catalog on both sites: the same handles, each site's own ids", async () => {
    const up = await fleet(["up"]);
    assert.equal(up.code, 0, `${up.stdout}\n${up.stderr}`);
    assert.deepEqual(byResult(up.report), { succeeded: [...SITES] });
    const fresh = await catalogOf(sims.fresh, KEYS.fresh);
    const used = await catalogOf(sims.used, KEYS.used);
    // The same handles on both sites: the program's family, product and price points (the used site also keeps its own).
    for (const cat of [fresh, used]) {
      assert.ok(cat.families.plans, "family `plans`");
      assert.deepEqual(cat.products.launch?.family, "plans");
      assert.ok(cat.pricePoints["launch/launch-annual"], "price point `launch-annual`");
      assert.equal(cat.pricePoints["launch/launch-annual"]?.type, "catalog");
    }
    assert.deepEqual(Object.keys(fresh.families), ["plans"]);
    assert.deepEqual(Object.keys(fresh.products), ["launch"]);
    assert.deepEqual(Object.keys(used.families).sort(), ["legacy", "plans"]);
    assert.deepEqual(Object.keys(used.products).sort(), ["basic", "launch", "starter", "team"]);
    // The declared price points by handle; the default one is the product's pricing, whose handle the service
    // makes (`uuid:…`, per site), so it is compared by id only.
    const declaredPricePoints = (cat: Catalog) =>
      Object.entries(cat.pricePoints)
        .filter(([k, v]) => k.startsWith("launch/") && v.type !== "default")
        .map(([k]) => k);
    assert.deepEqual(declaredPricePoints(fresh), ["launch/launch-annual"]);
    assert.deepEqual(declaredPricePoints(used), ["launch/launch-annual"]);
    // Different ids: each site numbers its own.
    const [a, b] = [declared(fresh), declared(used)];
    assert.notEqual(a.family, b.family, "family ids");
    assert.notEqual(a.product?.id, b.product?.id, "product ids");
    assert.notEqual(a.annual?.id, b.annual?.id, "annual price point ids");
    assert.notEqual(a.defaultPricePoint?.id, b.defaultPricePoint?.id, "default price point ids");
  });

  it("a second billing-fleet preview shows no changes on either site and sends nothing", async () => {
    const before = SITES.map((n) => sims[n].requests.length);
    const preview = await fleet(["preview"]);
    assert.equal(preview.code, 0, `${preview.stdout}\n${preview.stderr}`);
    assert.deepEqual(byResult(preview.report), { succeeded: [...SITES] });
    for (const site of preview.report.sites) {
      assert.equal(site.changed, 0, `${site.name}: ${JSON.stringify(site.changes)}`);
      const planned = (site.preview?.steps ?? []).filter((st) => st.op !== "same").map((st) => `${st.op} ${st.urn.split("::").pop()}`);
      assert.deepEqual(planned, [], site.name);
      assert.ok(
        (site.preview?.steps ?? []).some((st) => st.type?.endsWith("billing:ProductPricePoint")),
        `${site.name} declares the catalog`,
      );
    }
    assert.deepEqual(
      SITES.flatMap((n, i) => mutations(sims[n].requests.slice(before[i])).map((r) => `${n}: ${r.method} ${r.path}`)),
      [],
    );
  });

  it("no credential in any output or report", () => {
    for (const name of SITES) assert.ok(!outputs.join("\n").includes(KEYS[name]), `the key of ${name} was printed`);
  });
});
