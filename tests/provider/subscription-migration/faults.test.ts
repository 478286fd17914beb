import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { MIGRATIONS, migrationSite, postsOf } from "./site";

/**
 * SubscriptionMigration pending: a migration that needs 3-D Secure is recorded pending with the action link, and the
 * next up adopts it once done, without a second POST; an outcome the SDK could not learn is recorded pending, and the
 * next up re-sends it with the same token only if it was not applied; each says so in exact words.
 */

describe("SubscriptionMigration pending", () => {
  let sim: Simulator;
  const { setup } = migrationSite((started) => {
    sim = started;
  });

  it("3-D Secure: create fails with the action link as a pending partial failure; the next up adopts it without a second POST", async () => {
    const { p, id } = await setup("active", { requiresAuthentication: true });
    const err = await p.create({ subscriptionId: id, productHandle: "pro", __provider: "TEXT" }).catch((e) => e);
    expect(err.message).toMatch(/http:\/\/127\.0\.0\.1:\d+\/authentications\//);
    expect(err.id).toMatch(new RegExp(`^${id}-`));
    expect(err.properties).toMatchObject({ pending: true, pendingReason: "authentication", __provider: "TEXT" });
    expect(err.properties.actionLink).toBeTruthy();

    // Not yet authenticated: the next up says so and posts nothing.
    const early = await p.update!(err.id, err.properties, { subscriptionId: id, productHandle: "pro" }).catch((e) => e);
    expect(early.message).toMatch(/not completed yet/);
    expect(early.properties).toMatchObject({ pending: true });
    expect(await p.diff!(err.id, err.properties, { subscriptionId: id, productHandle: "pro" })).toMatchObject({
      changes: true,
      replaces: [],
    });

    expect((await fetch(err.properties.actionLink)).ok).toBe(true);
    const adopted = await p.update!(err.id, err.properties, { subscriptionId: id, productHandle: "pro" });
    expect(adopted.outs).toMatchObject({ productHandle: "pro", pending: false });
    expect(postsOf(sim)).toHaveLength(1);
  });

  it("an outcome the SDK could not learn is recorded as pending, and the next up re-sends with the same token only if needed", async () => {
    const { p, id } = await setup();
    sim.injectFault({ kind: "reset", match: { method: "POST", path: MIGRATIONS } });
    // The read before posting goes through (a harmless 0 ms delay takes it); every read-back after the reset fails.
    sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET" } });
    sim.injectFault({ kind: "reset", match: { method: "GET" } });
    const err = await p.create({ subscriptionId: id, productHandle: "pro" }).catch((e) => e);
    expect(err.properties).toMatchObject({ pending: true, pendingReason: "unknown", previousState: "active" });
    sim.clearFaults();
    const done = await p.update!(err.id, err.properties, { subscriptionId: id, productHandle: "pro" });
    expect(done.outs).toMatchObject({ productHandle: "pro" });
    const tokens = new Set(postsOf(sim).map((r) => r.uniquenessToken));
    expect(tokens.size).toBe(1);
    expect(sim.getSubscription(id)?.productId).toBe(2);
  });

  it("pending outcomes carry their exact messages, and adopting or re-sending one records no warnings", async () => {
    const { p, id } = await setup("active", { requiresAuthentication: true });
    const auth = await p.create({ subscriptionId: id, productHandle: "pro" }).catch((e) => e);
    const link = auth.properties.actionLink as string;
    expect(auth.message).toBe(
      `subscription ${id}: the migration needs 3-D Secure authentication by the customer. Send them to ${link}; after they ` +
        "complete it, run `pulumi up` again to record the migrated subscription (nothing is posted again).",
    );
    expect((await fetch(link)).ok).toBe(true);
    const adopted = await p.update!(auth.id, auth.properties, { subscriptionId: id, productHandle: "pro" });
    expect(adopted.outs.warnings).toEqual([]);

    const other = sim.addSubscription({ productHandle: "basic", state: "trial_ended" }).id;
    sim.injectFault({ kind: "reset", match: { method: "POST", path: MIGRATIONS } });
    sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET" } });
    sim.injectFault({ kind: "reset", match: { method: "GET" } });
    const lost = await captureOutput(() => p.create({ subscriptionId: other, productHandle: "pro" }));
    const err = lost.error as Error & { properties: { uniquenessToken: string } };
    const token = err.properties.uniquenessToken;
    expect(err.message).toBe(
      `migration of subscription ${other} may or may not have been applied: the request failed (GET /subscriptions/${other}.json: ` +
        `read ECONNRESET (ECONNRESET)) and the subscription could not be read back; resume it with the same uniqueness_token ` +
        `(${token}), never with a new one. It is recorded as pending: the next \`pulumi up\` reads the subscription and only ` +
        "re-sends with the same uniqueness token if it was not applied.",
    );
    sim.clearFaults();
    // Re-sent: a trial_ended subscription's advice was given at create, and is not recorded for the re-send.
    const resent = await p.update!((err as unknown as { id: string }).id, err.properties, { subscriptionId: other, productHandle: "pro" });
    expect(resent.outs).toMatchObject({ productHandle: "pro", pending: false, warnings: [] });
    expect(
      postsOf(sim)
        .filter((r) => r.path === `/subscriptions/${other}/migrations.json`)
        .map((r) => r.uniquenessToken),
    ).toEqual([token, token]);
  });
});
