import { describe, expect, it } from "vitest";
import { site } from "./helpers";

/** readSite (sdk/site.ts) against the simulator. */

describe("readSite", () => {
  it("reads the site, repeating a read whose answer was a 500", async () => {
    const s = await site();
    s.sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path: "/site.json" } });
    expect(await s.billing.readSite()).toStrictEqual({
      id: 1,
      name: "Billing Simulator",
      subdomain: "simulator",
      test: true,
      currency: "USD",
      nonPrimaryCurrencies: [],
    });
    expect(s.sim.requests.map((r) => `${r.status} ${r.method} ${r.path}`)).toStrictEqual(["500 GET /site.json", "200 GET /site.json"]);
  });
});
