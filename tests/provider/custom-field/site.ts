import { customFieldProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { KEY, mutations, sitePerTest } from "../support";

/**
 * What the CustomField kind's tests share: the field they declare, how they read the requests a step sent, and a
 * fresh simulator per test, with the custom field provider configured for it over a real socket, at the top level
 * and as billing:sites entry `eu`.
 */

export const declared = { resourceType: "subscriptions", name: "Region", inputType: "dropdown", enum: ["EU", "US"] };
export type Json = Record<string, unknown>;

/** Every scope flag off and no pages: what the service holds of a field made without a scope. */
export const NO_SCOPE = { csv: false, invoices: false, statements: false, portal: false, publicShow: false, publicEdit: false, hosted: [] };

/** The requests that change something, as `METHOD path`. */
export const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

/** A site per test, closed after it (call at a test file's top level; `started` is given each test's simulator). */
export function customFieldSite(started: (sim: Simulator) => void) {
  const { setup, current } = sitePerTest(customFieldProvider, started);

  /** The field of a resource type with this name, as the service answers it; undefined when there is none. */
  async function held(name: string, resourceType = "subscriptions"): Promise<Json | undefined> {
    const res = await fetch(`${current()?.url}/${resourceType}/metafields.json?name=${encodeURIComponent(name)}`, {
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` },
    });
    return ((await res.json()) as { metafields: Json[] }).metafields.find((m) => m.name === name);
  }

  return { setup, held };
}
