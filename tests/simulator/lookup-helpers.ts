import { expect } from "vitest";
import type { Simulator } from "../../simulator";
import { basic } from "./helpers";

/**
 * A lookup that finds nothing is a 404 (the service's answer to an unknown handle or code; findCoupon's
 * description says so) with an error list; the contract lists no 404 for these paths without an id in them
 * (tests/contract/validator.ts adds one only to paths with a parameter), so this one is checked here by hand.
 */
export async function notFound(sim: Simulator, path: string): Promise<void> {
  const res = await fetch(sim.url + path, { headers: { authorization: basic(), accept: "application/json" } });
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ errors: [expect.any(String)] });
}
