import { expect } from "vitest";
import type { Simulator } from "../../simulator";
import { basic } from "./helpers";

/**
 * A lookup that finds nothing is a 404 (the service's answer to an unknown handle or code; findCoupon's
 * description says so) with an error list: its exact shape, beyond what the contract validator's added 404
 * (tests/contract/validator.ts) accepts.
 */
export async function notFound(sim: Simulator, path: string): Promise<void> {
  const res = await fetch(sim.url + path, { headers: { authorization: basic(), accept: "application/json" } });
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ errors: [expect.any(String)] });
}
