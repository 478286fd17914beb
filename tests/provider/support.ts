import type * as pulumi from "@pulumi/pulumi";
import { vi } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { configureRequest } from "../engine/support";

export const KEY = "sk_live_PROVIDER_SECRET_4242";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export { configureRequest } from "../engine/support";

/**
 * A provider object configured against a fresh simulator. Each test gets its
 * own copy of the provider (configuration is kept per provider object), with
 * the methods of the exported one.
 */
export async function configured<P extends pulumi.dynamic.ResourceProvider>(exported: P, extra: Record<string, string> = {}) {
  const sim: Simulator = await startSimulator({ apiKey: KEY });
  sim.addProduct({ id: 1, handle: "basic" });
  sim.addProduct({
    id: 2,
    handle: "pro",
    pricePoints: [
      { id: 201, handle: "pro-monthly", default: true },
      { id: 202, handle: "pro-annual" },
    ],
  });
  sim.addProduct({ id: 3, handle: "launch" });
  const provider = { ...exported } as P;
  await provider.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY, ...extra }));
  return { sim, provider };
}

/** Everything written to stderr/stdout/console while `fn` runs. */
export async function captureOutput<T>(fn: () => Promise<T>): Promise<{ result: T | undefined; error: unknown; text: string }> {
  let text = "";
  const write = (c: string | Uint8Array) => {
    text += String(c);
    return true;
  };
  const spies = [
    vi.spyOn(process.stderr, "write").mockImplementation(write),
    vi.spyOn(process.stdout, "write").mockImplementation(write),
    ...(["log", "info", "warn", "error", "debug"] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...a: unknown[]) => {
        text += `${a.join(" ")}\n`;
      }),
    ),
  ];
  try {
    return { result: await fn(), error: undefined, text };
  } catch (error) {
    return { result: undefined, error, text };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

export const mutations = (sim: Simulator) => sim.requests.filter((r) => r.method !== "GET" && !r.path.endsWith("/preview.json"));
