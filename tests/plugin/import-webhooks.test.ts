import { afterEach, describe, expect, it } from "vitest";
import { providerConfig } from "../../plugin/config";
import { settingsIdProblem } from "../../plugin/import";
import { BillingProvider } from "../../plugin/provider";
import { type Simulator, startSimulator } from "../../simulator";

// `pulumi import` of the webhook kinds through the plugin's provider, against the simulator over a real
// socket: the message for an endpoint a billing:sites entry does not have names that site, and the
// message for an empty WebhookSettings id offers no "<id>/enabled" example.

const KEY = "sk_live_PLUGIN_IMPORT_WEBHOOKS_9191";
const EU_KEY = "sk_live_PLUGIN_IMPORT_WEBHOOKS_EU_9292";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const ENDPOINT = "urn:pulumi:dev::billing-app::billing:index:WebhookEndpoint::hooks";
const WHY =
  "the service cannot report whether webhooks are on, so the id states the value you expect; the next up sends the PUT once to confirm it";

describe("pulumi import of a WebhookEndpoint that does not exist", () => {
  const sims: Simulator[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
  });

  it("names the billing:sites entry it was looked for on, or the configured site", async () => {
    const sim = await startSimulator({ apiKey: KEY });
    const eu = await startSimulator({ apiKey: EU_KEY });
    sims.push(sim, eu);
    // Endpoint 1 exists at the top level only: looked for on eu, it is not there.
    const top = sim.addEndpoint({ url: "https://hooks.example.com/billing", events: ["payment_success"] });
    const p = new BillingProvider("0.1.0");
    p.configure(
      providerConfig([], {
        baseUrl: sim.url,
        apiKey: { ...SECRET, value: KEY },
        sites: { ...SECRET, value: JSON.stringify({ eu: { baseUrl: eu.url, apiKey: EU_KEY } }) },
      }),
    );
    const message = (id: string) =>
      p.read(id, ENDPOINT, {}).then(
        () => "imported",
        (e: Error) => e.message,
      );
    // Said of the id, as every kind's import says what it could not find.
    expect(await message(`eu/${top.id}`)).toBe(
      `WebhookEndpoint import id "eu/${top.id}": webhook endpoint ${top.id} does not exist on site "eu": nothing to import`,
    );
    expect(await message("42")).toBe(
      'WebhookEndpoint import id "42": webhook endpoint 42 does not exist on the configured site: nothing to import',
    );
    expect(sim.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(eu.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });
});

describe("settingsIdProblem", () => {
  it.each([
    [
      "",
      `WebhookSettings import id "": "" is not a state: use enabled or disabled (or <site>/enabled for an entry of billing:sites); ${WHY}`,
    ],
    [
      "on",
      `WebhookSettings import id "on": "on" is not a state: use enabled or disabled (or <site>/enabled for an entry of billing:sites); ${WHY}`,
    ],
    [
      "eu-store",
      `WebhookSettings import id "eu-store": "eu-store" is not a state: use enabled or disabled (or <site>/enabled for an entry of billing:sites, e.g. "eu-store/enabled" if "eu-store" is one); ${WHY}`,
    ],
  ])("%j: the whole message (an empty id or a state word gets no <id>/enabled example)", (id, message) => {
    expect(settingsIdProblem(id)).toBe(message);
  });
});
