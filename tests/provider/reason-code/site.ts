import { reasonCodeProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { mutations, sitePerTest } from "../support";

/**
 * What the ReasonCode kind's tests share: the code they declare, how they read the requests a step sent, and a
 * fresh simulator per test, with the reason code provider configured for it over a real socket, at the top level
 * and as billing:sites entry `eu`.
 */

export const declared = { code: "too_expensive", description: "It costs too much" };
export type Json = Record<string, unknown>;

/** The requests that change something, as `METHOD path`. */
export const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

/** A site per test, closed after it (call at a test file's top level; `started` is given each test's simulator). */
export function reasonCodeSite(started: (sim: Simulator) => void) {
  const { setup, current } = sitePerTest(reasonCodeProvider, started);

  /** The reason code with this code, as the site holds it; undefined when none has it. */
  const held = (code: string) =>
    current()
      ?.reasonCodes()
      .find((r) => r.code === code);

  return { setup, held };
}
