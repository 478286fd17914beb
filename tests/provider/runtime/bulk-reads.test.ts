import { describe, expect, it } from "vitest";
import { catalogRequests, type KindRequests } from "../../../bench/requests";
import { catalogKinds } from "../../../provider/kinds/catalog-kinds";

/**
 * Issue 43, reads in bulk: the providers' refresh and preview of a catalog of every kind (2 families, 10 products with
 * 2 price points each, 5 components with 2 each, 5 coupons, reason codes, custom fields, offers), every object's
 * operation asked for at once as the engine asks, against the simulator. Batched (the provider's 20 ms window), a
 * refresh reads each kind in at most one request per two objects, where each read alone (window 0) takes at least one
 * per object; a preview of a change to every object sends fewer requests than alone.
 */

const per = (r: KindRequests, phase: "refresh" | "preview") => r[phase] / r.objects;

describe("requests per object, refresh and preview of every catalog kind", () => {
  it("batched: a refresh at most 0.5 request per object of every kind (alone: at least 1); a preview fewer in all", async () => {
    const alone = await catalogRequests(0);
    const batched = await catalogRequests(20);
    expect(batched.map((r) => r.kind)).toEqual(alone.map((r) => r.kind));
    // Every catalog kind of the registry: a new one fails here until the benchmark's catalog holds it.
    expect(new Set(batched.map((r) => r.kind))).toEqual(new Set(catalogKinds().map((k) => k.type.split(":").pop())));
    for (const [i, b] of batched.entries()) {
      expect({ kind: b.kind, alone: per(alone[i], "refresh") >= 1 }).toEqual({ kind: b.kind, alone: true });
      expect({ kind: b.kind, batched: per(b, "refresh") <= 0.5 }).toEqual({ kind: b.kind, batched: true });
      expect({ kind: b.kind, preview: b.preview <= alone[i].preview }).toEqual({ kind: b.kind, preview: true });
    }
    const total = (rs: readonly KindRequests[], phase: "refresh" | "preview") => rs.reduce((n, r) => n + r[phase], 0);
    expect(total(batched, "preview")).toBeLessThan(total(alone, "preview"));
    expect(total(batched, "refresh")).toBeLessThan(total(alone, "refresh") / 2);
  }, 120_000);
});
