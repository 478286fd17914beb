import { describe, expect, it } from "vitest";
import { kinds } from "../../../provider/runtime";
import { configuredWith } from "./configured";

/** A kind's runtime (provider/runtime/provide.ts): a recorded state it cannot read, and a `site` of the wrong type. */

describe("provide: a kind's runtime (provider/runtime/provide.ts)", () => {
  const hook = { url: "https://a.example.com/h", events: ["payment_failure"] };
  const configured = () => configuredWith({ "billing:apiKey": "sk_live_PROVIDE_1", "billing:baseUrl": "http://127.0.0.1:9" });

  it("a recorded state this version cannot read: diff says which fields and what to do, whole, before any request", async () => {
    await expect(kinds.webhookEndpoint.diff(configured(), "7", { endpointId: "seven", url: 3 }, hook)).rejects.toThrow(
      new Error(
        "WebhookEndpoint 7: the recorded state is not one this version of pulumi-subscription-billing reads " +
          "(endpointId: Invalid input: expected number, received string; url: Invalid input: expected string, received number; events: is required). " +
          "Nothing was sent. If the package was downgraded, upgrade it again.",
      ),
    );
  });

  it("a site of the wrong type is one failure: the schema's, not also the site check's", async () => {
    expect((await kinds.webhookEndpoint.check(configured(), {}, { ...hook, site: 5 })).failures).toEqual([
      { property: "site", reason: "must be the name of an entry of the stack config billing:sites (a non-empty string), got 5" },
    ]);
    expect((await kinds.webhookEndpoint.check(configured(), {}, { ...hook, site: "eu" })).failures).toEqual([
      {
        property: "site",
        reason:
          "site \"eu\" is not an entry of the stack config billing:sites (billing:sites is not set; set it with `pulumi config set --secret billing:sites '{…}'`)",
      },
    ]);
  });
});
