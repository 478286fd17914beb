import { afterEach, describe, expect, it } from "vitest";
import { BillingClient, BillingError } from "../../sdk";
import { type Simulator, startSimulator } from "../../simulator";
import { KEY, quiet, staleSetting } from "./world";

// The fault matrix excuses a setting that differs from the value just reported applied only by staleSetting: a
// PUT its client gave up on, landing after a newer one (the setting has no GET, so no client can see it). Here
// that landing is made to happen, so the excuse is shown to be a real case, and to be refused where it is not.

const SETTINGS = { method: "PUT", path: "/webhooks/settings.json" } as const;
const sites: Simulator[] = [];
const clients: BillingClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

async function site(): Promise<{ sim: Simulator; client: BillingClient }> {
  const sim = await startSimulator({ apiKey: KEY });
  sites.push(sim);
  const client = new BillingClient({ baseUrl: sim.url, apiKey: KEY, timeoutMs: 200, maxRetries: 0 });
  clients.push(client);
  return { sim, client };
}

describe("staleSetting: a settings PUT its client gave up on, landing after a newer one", () => {
  it("the abandoned PUT of false lands after true was answered: the site holds false, and that is excused", async () => {
    const { sim, client } = await site();
    // Taken at once, applied only after 600 ms: the client (200 ms) gives up on it first.
    sim.injectFault({ kind: "processing", ms: 600, times: 1, match: SETTINGS });
    const abandoned = await client.setWebhooksEnabled(false).catch((err: unknown) => err);
    expect(abandoned).toBeInstanceOf(BillingError);
    expect(await client.setWebhooksEnabled(true)).toEqual({ webhooksEnabled: true });
    await quiet([sim]);
    expect(sim.webhooksEnabled).toBe(false);
    expect(sim.requests.filter((r) => r.path === SETTINGS.path).map((r) => r.status)).toEqual([0, 200]);
    expect(staleSetting(sim, false, true)).toBe(true);
    // Not an excuse for anything else: the value answered last was true, and no PUT of true was abandoned.
    expect(staleSetting(sim, true, false)).toBe(false);
  });

  it("no abandoned PUT: a site holding another value than the last answered one is not excused", async () => {
    const { sim, client } = await site();
    await client.setWebhooksEnabled(false);
    await client.setWebhooksEnabled(true);
    sim.webhooksEnabled = false; // changed behind the clients' backs: what a misreport would look like
    expect(staleSetting(sim, false, true)).toBe(false);
  });

  it("an abandoned PUT of the held value after the last answered one is no excuse either", async () => {
    const { sim, client } = await site();
    await client.setWebhooksEnabled(true);
    sim.injectFault({ kind: "processing", ms: 600, times: 1, match: SETTINGS });
    await client.setWebhooksEnabled(false).catch(() => undefined);
    await quiet([sim]);
    expect(sim.webhooksEnabled).toBe(false);
    // The client never heard that false applied, so it reports nothing about it; the last answered PUT carried true
    // and came first, so a report of true checked now must not be excused by a PUT that was sent after it.
    expect(staleSetting(sim, false, true)).toBe(false);
  });

  it("a report of a value the last answered PUT did not carry is not excused, abandoned PUTs or not", async () => {
    const { sim, client } = await site();
    sim.injectFault({ kind: "processing", ms: 600, times: 1, match: SETTINGS });
    await client.setWebhooksEnabled(false).catch(() => undefined);
    await client.setWebhooksEnabled(false);
    await quiet([sim]);
    // A client claiming true here would be misreporting: the service answered false last.
    expect(staleSetting(sim, false, true)).toBe(false);
  });
});
