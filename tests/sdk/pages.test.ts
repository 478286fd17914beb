import { describe, expect, it } from "vitest";
import { allPages } from "../../sdk/pages";
import { recordingProxy } from "../contract/recorder";
import { clientOf, type Step, scripted } from "./helpers";

/**
 * allPages (sdk/pages.ts): where the reading of a paged list stops (a short page, an empty one, a page with nothing
 * new) and that a row read twice is kept once.
 */

const ok = (json: unknown): Step => ({ status: 200, json });

describe("allPages", () => {
  /** A paged list of ids (rows beyond the last page are empty), and the pages asked for; a runaway read fails at page 10. */
  function pagedList(pages: readonly (readonly number[])[], ignoresPage = false) {
    const asked: number[] = [];
    const page = async (n: number) => {
      asked.push(n);
      if (n > 10) throw new Error(`page ${n}: read past any end`);
      return (ignoresPage ? pages[0] : (pages[n - 1] ?? [])).map((id) => ({ id }));
    };
    return { asked, page };
  }

  it.each([
    ["nothing: one empty page", [[]], false, [], [1]],
    ["a short first page", [[1, 2]], false, [1, 2], [1]],
    ["a full page, then a short one", [[1, 2, 3], [4]], false, [1, 2, 3, 4], [1, 2]],
    [
      "full pages, then an empty one",
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      false,
      [1, 2, 3, 4, 5, 6],
      [1, 2, 3],
    ],
    [
      "a page repeating the end of the one before",
      [
        [1, 2, 3],
        [3, 4, 5],
        [5, 6],
      ],
      false,
      [1, 2, 3, 4, 5, 6],
      [1, 2, 3],
    ],
    ["a row twice on one page", [[1, 1, 2], [3]], false, [1, 2, 3], [1, 2]],
    [
      "rows without a real id",
      [
        [0, 1, -2],
        [3, 0],
      ],
      false,
      [1, 3],
      [1, 2],
    ],
    ["a service that ignores page: page 1 every time", [[1, 2, 3]], true, [1, 2, 3], [1, 2]],
    ["a full page with nothing new ends the reading", [[1, 2, 3], [3, 2, 1], [4]], false, [1, 2, 3], [1, 2]],
  ])("%s", async (_, pages, ignoresPage, ids, asked) => {
    const list = pagedList(pages, ignoresPage);
    expect((await allPages(3, list.page)).map((r) => r.id)).toStrictEqual(ids);
    expect(list.asked).toStrictEqual(asked);
  });

  it("through listPricePoints: a service that answers page 1 to every page is read twice, each price point once", async () => {
    const page1 = Array.from({ length: 200 }, (_, i) => ({ id: 500 + i, handle: `pp-${i}` }));
    const server = await scripted([ok({ price_points: page1 }), ok({ price_points: page1 })]);
    const proxy = await recordingProxy(server.url);
    try {
      const got = await clientOf(proxy.url).listPricePoints(7);
      expect(got.map((p) => [p.id, p.handle])).toStrictEqual(page1.map((p) => [p.id, p.handle]));
      expect(proxy.exchanges.map((x) => [x.method, x.url])).toStrictEqual([
        ["GET", "/products/7/price_points.json?page=1&per_page=200"],
        ["GET", "/products/7/price_points.json?page=2&per_page=200"],
      ]);
    } finally {
      await proxy.close();
    }
  });
});
