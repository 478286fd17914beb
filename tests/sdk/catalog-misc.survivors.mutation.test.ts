import { describe, expect, it } from "vitest";
import { siteWithFamilies } from "./catalog/simulator-fixtures";
import { refusedWith } from "./helpers";

describe("replay ids: more than ten bad entries are counted, not listed", () => {
  it("eleven bad ids show ten and '… 1 more'", async () => {
    const { sim, billing } = await siteWithFamilies();
    const bad = Array.from({ length: 11 }, (_, i) => -(i + 1));
    const r = await refusedWith(billing.replayWebhooks(bad));
    const shown = bad
      .slice(0, 10)
      .map((v, i) => `[${i}] ${v}`)
      .join(", ");
    expect(r.message.endsWith(`bad entries: ${shown}, … 1 more`)).toBe(true);
    expect(sim.requests).toStrictEqual([]);
  });
});
