import { describe, expect, it } from "vitest";
import { SiteConfigError, settingsFor } from "../../../provider/runtime/config";
import { configuredWith, siteConfigError } from "./configured";

/**
 * A resource's `site` and billing:sites (provider/runtime/config.ts): a site that is no entry names the entries, or
 * says how to set billing:sites; a billing:sites that is no JSON object, or an entry that is no object, says so; a
 * SiteConfigError says so by its name.
 */

describe("config: billing:sites", () => {
  it("a site not in billing:sites names the entries, or says how to set billing:sites; a bad billing:sites says what it must be", () => {
    const some = configuredWith({ "billing:sites": JSON.stringify({ a: {}, b: {} }) });
    expect(() => settingsFor(some, "c")).toThrow(
      new SiteConfigError('site "c" is not an entry of the stack config billing:sites (entries: a, b)'),
    );
    const none = configuredWith({});
    expect(() => settingsFor(none, "c")).toThrow(
      "site \"c\" is not an entry of the stack config billing:sites (billing:sites is not set; set it with `pulumi config set --secret billing:sites '{…}'`)",
    );
    for (const raw of ["[1]", "null", "3", "{"]) {
      const bad = configuredWith({ "billing:sites": raw });
      expect(() => settingsFor(bad, "c")).toThrow(/^billing:sites must be a JSON object keyed by site name/);
    }
  });

  it("set to an empty value is not set: the message says how to set it, not that it is malformed", () => {
    const p = configuredWith({ "billing:sites": "" });
    const err = siteConfigError(() => settingsFor(p, "eu"));
    expect(err.message).toBe(
      "site \"eu\" is not an entry of the stack config billing:sites (billing:sites is not set; set it with `pulumi config set --secret billing:sites '{…}'`)",
    );
  });

  it.each([
    ["a string", "acme"],
    ["a number", 3],
    ["null", null],
  ])("an entry that is %s is not an entry", (_, entry) => {
    const p = configuredWith({ "billing:sites": JSON.stringify({ eu: entry, us: { subdomain: "acme" } }) });
    const err = siteConfigError(() => settingsFor(p, "eu"));
    expect(err.message).toBe('site "eu" is not an entry of the stack config billing:sites (entries: eu, us)');
  });

  it("a SiteConfigError says so by its name", () => {
    const err = siteConfigError(() => settingsFor(configuredWith({}), "eu"));
    expect(err.name).toBe("SiteConfigError");
    expect(String(err)).toMatch(/^SiteConfigError: site "eu"/);
  });
});
