import type * as pulumi from "@pulumi/pulumi";
import * as providers from "../../provider";
import { KINDS } from "../../provider/kinds";
import { configureRequest } from "../engine/support";

/**
 * Each kind's dynamic provider, by its type, configured for a site as a program's stack config would: what the
 * tests that apply a whole catalog through the providers (the round trip, the convergence property) drive.
 */
export async function dynamicProviders(baseUrl: string, apiKey: string): Promise<Map<string, pulumi.dynamic.ResourceProvider>> {
  const out = new Map<string, pulumi.dynamic.ResourceProvider>();
  for (const m of Object.values(KINDS)) {
    const exported = (providers as unknown as Record<string, pulumi.dynamic.ResourceProvider>)[`${m.kind.key}Provider`];
    if (!exported) continue;
    const p = { ...exported };
    await p.configure?.(configureRequest({ "billing:baseUrl": baseUrl, "billing:apiKey": apiKey }));
    out.set(m.kind.type, p);
  }
  return out;
}
