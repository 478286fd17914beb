import { Pool } from "undici";

const PER_PAGE = 200;
const IN_FLIGHT = 4;

/**
 * The reference of the export figure: the pages `billing-catalog export` reads, with a bare undici
 * Pool (4 connections, 4 requests in flight), each answer JSON-parsed and kept, no checking: families,
 * products, components and coupons page by page, then every product's and component's price points.
 */
export async function bareCatalogRead(url: string, key: string): Promise<{ products: number; answers: unknown[] }> {
  const pool = new Pool(url, { connections: IN_FLIGHT });
  const authorization = `Basic ${Buffer.from(`${key}:x`).toString("base64")}`;
  const answers: unknown[] = [];
  const get = async (path: string): Promise<unknown> => {
    const res = await pool.request({ method: "GET", path, headers: { accept: "application/json", authorization } });
    const body = JSON.parse(await res.body.text());
    if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode}`);
    answers.push(body);
    return body;
  };
  const paged = async (path: string, rows: (b: unknown) => unknown[]): Promise<unknown[]> => {
    const all: unknown[] = [];
    for (let page = 1; ; page++) {
      const got = rows(await get(`${path}${path.includes("?") ? "&" : "?"}page=${page}&per_page=${PER_PAGE}`));
      all.push(...got);
      if (got.length < PER_PAGE) return all;
    }
  };
  // At most 4 lists at once, as the export reads them.
  const queue: (() => Promise<unknown>)[] = [];
  const drain = () =>
    Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let job = queue.shift(); job; job = queue.shift()) await job();
      }),
    );
  let products: { product: { id: number } }[] = [];
  let components: { component: { id: number } }[] = [];
  queue.push(
    () => get("/product_families.json"),
    async () => {
      products = (await paged("/products.json?include_archived=true", (b) => b as unknown[])) as typeof products;
    },
    async () => {
      components = (await paged("/components.json?include_archived=true", (b) => b as unknown[])) as typeof components;
    },
    () => paged("/coupons.json", (b) => b as unknown[]),
  );
  try {
    await drain();
    for (const p of products)
      queue.push(() => paged(`/products/${p.product.id}/price_points.json`, (b) => (b as { price_points: unknown[] }).price_points));
    for (const c of components)
      queue.push(() => paged(`/components/${c.component.id}/price_points.json`, (b) => (b as { price_points: unknown[] }).price_points));
    await drain();
    return { products: products.length, answers };
  } finally {
    await pool.close();
  }
}
