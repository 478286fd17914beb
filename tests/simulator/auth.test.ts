import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { basic, call } from "./helpers";

describe("authentication", () => {
  let sim: Simulator;
  let noBearer: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: "k_live", accessToken: "tok_123" });
    noBearer = await startSimulator({ apiKey: "k_live" });
  });
  afterAll(async () => {
    await sim.close();
    await noBearer.close();
  });

  const cases: { name: string; auth: string | null; bearerless?: boolean; status: number }[] = [
    { name: "basic key:x", auth: basic("k_live"), status: 200 },
    { name: "basic scheme in lower case", auth: basic("k_live").replace("Basic", "basic"), status: 200 },
    { name: "basic wrong password", auth: basic("k_live", "secret"), status: 401 },
    { name: "basic empty password", auth: basic("k_live", ""), status: 401 },
    { name: "basic wrong key", auth: basic("k_other"), status: 401 },
    { name: "basic without colon", auth: `Basic ${Buffer.from("k_live").toString("base64")}`, status: 401 },
    { name: "bearer token", auth: "Bearer tok_123", status: 200 },
    { name: "bearer wrong token", auth: "Bearer tok_999", status: 401 },
    { name: "bearer when no token is configured", auth: "Bearer tok_123", bearerless: true, status: 401 },
    { name: "api key sent as bearer", auth: "Bearer k_live", status: 401 },
    { name: "unknown scheme", auth: "Token k_live", status: 401 },
    { name: "no credentials", auth: null, status: 401 },
  ];
  it.each(cases)("$name → $status", async ({ auth, bearerless, status }) => {
    const res = await call(bearerless ? noBearer : sim, "PUT", "/webhooks/settings.json", { auth, body: { webhooks_enabled: true } });
    expect(res.status).toBe(status);
    if (status === 401) {
      expect(res.body.errors).toHaveLength(1);
      expect(JSON.stringify(res.body)).not.toMatch(/k_live|tok_123|k_other|tok_999/);
    }
  });

  it("refuses before routing: an unknown path without credentials is 401, not 404", async () => {
    expect((await call(sim, "GET", "/nowhere.json", { auth: null })).status).toBe(401);
    expect((await call(sim, "GET", "/nowhere.json", { auth: basic("k_live") })).status).toBe(404);
  });

  it("never writes credentials into the request log", async () => {
    await call(sim, "GET", "/webhooks.json", { auth: basic("k_live") });
    await call(sim, "GET", "/webhooks.json", { auth: "Bearer tok_123" });
    await call(sim, "GET", "/webhooks.json", { auth: basic("k_live", "leaky-password") });
    const logged = JSON.stringify(sim.requests);
    for (const secret of ["k_live", "tok_123", "leaky-password", basic("k_live").slice(6), "authorization"]) {
      expect(logged.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });
});
