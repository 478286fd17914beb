import path from "node:path";
import * as pulumi from "@pulumi/pulumi";

/** The credentials the engine tests plant everywhere a leak could come from. */
export const API_KEY = "sk_live_ENGINE_SECRET_4242";
export const ENV_KEY = "sk_env_ENGINE_SECRET_9191";
export const ROOT = path.resolve(__dirname, "../..");

export interface Registered {
  readonly type: string;
  readonly name: string;
  readonly inputs: Record<string, unknown>;
}

/**
 * Runs the package's resource constructors under `pulumi.runtime.setMocks`, so
 * that the real closure serialization produces `__provider`, with a secret
 * API key in stack config and in the environment while it runs.
 */
export async function registerUnderMocks(
  expected: number,
  build: (billing: typeof import("../../provider")) => void,
): Promise<Registered[]> {
  const seen: Registered[] = [];
  process.env.BILLING_API_KEY = ENV_KEY;
  try {
    await pulumi.runtime.setMocks(
      {
        newResource: (a) => {
          seen.push({ type: a.type, name: a.name, inputs: a.inputs });
          return { id: `${a.name}-id`, state: a.inputs };
        },
        call: (a) => a.inputs,
      },
      "engine-tests",
      "test",
      true,
    );
    pulumi.runtime.setAllConfig({ "billing:apiKey": API_KEY, "billing:baseUrl": "http://127.0.0.1:9" }, ["billing:apiKey"]);
    build(require("../../provider"));
    // Registration (and the serialization inside it) finishes asynchronously: wait for all `expected`. The
    // deadline only names a hang before the hooks' 60 s timeout would (a loaded 2-core machine can take seconds).
    for (let i = 0; i < 2000 && seen.length < expected; i++) await new Promise((r) => setTimeout(r, 25));
    if (seen.length < expected) throw new Error(`${seen.length} of ${expected} resources registered within 50 s`);
  } finally {
    delete process.env.BILLING_API_KEY;
  }
  return seen;
}

/** Deserializes `__provider` the way the dynamic-provider host does. */
export function deserialize(text: string): pulumi.dynamic.ResourceProvider {
  const requireFromString = require(require.resolve("require-from-string", { paths: [require.resolve("@pulumi/pulumi")] }));
  return requireFromString(text).handler();
}

/** The `configure` request the host builds: whole stack config, full keys, secrets decrypted. */
export function configureRequest(config: Record<string, string>): pulumi.dynamic.ConfigureRequest {
  return { config: { get: (key: string) => config[key] } } as unknown as pulumi.dynamic.ConfigureRequest;
}
