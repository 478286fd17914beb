import { describe, expect, it } from "vitest";
import { BillingApiError, type BillingValidationError, LiveSiteError } from "../../../sdk";
import { contractRequestCheck } from "../catalog/request-contract";
import { clientOf, everything, expectNoSecret, rejection } from "../helpers";
import { configService } from "./config-service";

/** Clearing a test site's data (sdk/site-config/clear-data.ts): the scope sent, and a live site's 403 as a typed error. */

describe("clearSiteData", () => {
  it.each(["customers", "all"] as const)("sends cleanup_scope=%s to a test site", async (scope) => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    expect(await billing.clearSiteData(scope)).toStrictEqual({ scope });
    expect(svc.sent.map((r) => `${r.method} ${r.url}`)).toStrictEqual([`POST /sites/clear_data.json?cleanup_scope=${scope}`]);
    expect(svc.cleared).toStrictEqual([scope]);
    expect((await contractRequestCheck(svc.sent)).problems).toStrictEqual([]);
  });

  it("a live site's 403 is a LiveSiteError in the user's words, without a credential", async () => {
    const svc = await configService();
    svc.site.test = false;
    const billing = clientOf(svc.url);
    const err = await rejection(billing.clearSiteData("all"));
    expect(err).toBeInstanceOf(LiveSiteError);
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as LiveSiteError).status).toBe(403);
    expect((err as Error).message).toBe(
      "clearing the site's data (its catalog, customers and subscriptions) was refused: the service clears only test sites, and answered 403 Forbidden, so this site is live; nothing was cleared",
    );
    expectNoSecret(everything(err));
    expect(svc.cleared).toStrictEqual([]);
  });

  it("an answer lost is asked again (clearing twice leaves the site as once would)", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    svc.fault({ method: "POST", path: /clear_data/, kind: "reset-after" });
    expect(await billing.clearSiteData("customers")).toStrictEqual({ scope: "customers" });
    expect(svc.cleared).toStrictEqual(["customers", "customers"]);
  });

  it("a scope the service does not take is refused before sending", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const err = await rejection(billing.clearSiteData("products" as "all"));
    expect((err as BillingValidationError).problems).toStrictEqual([
      { property: "scope", message: 'must be "customers" (customers and their subscriptions) or "all" (the catalog too), got "products"' },
    ]);
    expect(svc.sent).toStrictEqual([]);
  });
});
