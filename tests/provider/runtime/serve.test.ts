import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { KINDS } from "../../../provider";
import { serve } from "../../../provider/runtime";
import { startSimulator } from "../../../simulator";
import { configureRequest, KEY } from "../support";

/**
 * `serve`, what the stored provider's configure calls: the object the engine deserialized holds only its kind's
 * key until then, and must leave with that kind's operations, configured, before the host calls any.
 */
describe("serve: the stored provider's configure", () => {
  it("gives the object its kind's operations, a read exactly for the kinds whose refresh asks the service", () => {
    for (const { kind } of Object.values(KINDS)) {
      const stored: { kind: string } & Partial<pulumi.dynamic.ResourceProvider> = { kind: kind.key };
      serve(stored, configureRequest({ "billing:baseUrl": "http://127.0.0.1:9", "billing:apiKey": KEY }));
      for (const op of ["check", "diff", "create", "update", "delete"] as const)
        expect(typeof stored[op], `${kind.type} ${op}`).toBe("function");
      expect(typeof stored.read === "function", kind.type).toBe(kind.refresh);
    }
  });

  it("the operations run as configured on the object they were given to: a create against the stack config's service", async () => {
    const sim = await startSimulator({ apiKey: KEY });
    try {
      const stored: { kind: string } & Partial<pulumi.dynamic.ResourceProvider> = { kind: "webhookSettings" };
      serve(stored, configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
      const created = await stored.create!({ webhooksEnabled: true });
      expect(created.outs.webhooksEnabled).toBe(true);
      expect(sim.webhooksEnabled).toBe(true);
      expect(JSON.stringify(created)).not.toContain(KEY);
      expect(JSON.stringify(stored)).not.toContain(KEY);
    } finally {
      await sim.close();
    }
  });

  it("a kind this version does not have: an error naming it and the kinds it has, and the object gets nothing", () => {
    const stored: Record<string, unknown> = { kind: "invoiceTemplate" };
    expect(() => serve(stored, configureRequest({}))).toThrow(
      /resource kind "invoiceTemplate" that the installed version does not have \(it has webhookSettings, webhookEndpoint, .*\): install that version or a newer one/,
    );
    expect(Object.keys(stored)).toEqual(["kind"]);
  });
});
