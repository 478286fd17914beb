/**
 * The child process of env-credentials.test.ts: started with the `BILLING_*`
 * variables already in its environment, as a user's `pulumi up` is when the
 * credentials come from the environment fallback (no `billing:apiKey` in stack
 * config). Nothing of the package is imported before this line runs, so a
 * value any module reads when it loads is the real credential.
 *
 * It does what a program and the engine do with every resource kind:
 * constructs each with its declared example (the real closure serialization,
 * under setMocks, with no billing stack config), then drives the real
 * dynamic-provider host (started with the same environment) through check,
 * create, diff, read (where refresh reads) and delete against the simulator
 * the variables point at. It prints one JSON line: the registered inputs
 * (`__provider` included), every answer (the state the engine would write)
 * and the host's whole output; the test scans all of it for the credentials.
 */
import * as pulumi from "@pulumi/pulumi";
import { KINDS } from "../../provider";
import { ProviderHost } from "./host";

type Obj = Record<string, unknown>;
const token = (t: string) => `pulumi-nodejs:dynamic/billing:${t}`;
const urn = (type: string, name: string) => `urn:pulumi:test::engine-tests::${token(type)}::${name}`;

async function main(): Promise<void> {
  const modules = Object.values(KINDS);
  const registered: { type: string; inputs: Obj }[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => {
        registered.push({ type: a.type, inputs: a.inputs });
        return { id: `${a.name}-id`, state: a.inputs };
      },
      call: (a) => a.inputs,
    },
    "engine-tests",
    "test",
    true,
  );
  // Stack config without any billing key: the credentials are the environment's.
  pulumi.runtime.setAllConfig({ "engine-tests:other": "x" });
  const classes = require("../../provider") as Record<string, new (name: string, args: unknown) => unknown>;
  for (const { kind } of modules) new classes[kind.type](`${kind.key}-env`, kind.example);
  // Up to 50 s: the deadline only names a hang before the test's 120 s timeout would (not a speed claim).
  for (let i = 0; i < 2000 && registered.length < modules.length; i++) await new Promise((r) => setTimeout(r, 25));
  if (registered.length < modules.length) throw new Error(`${registered.length} of ${modules.length} resources registered`);

  const answers: unknown[] = [];
  const created: string[] = [];
  const host = await ProviderHost.start();
  try {
    await host.configure({ "engine-tests:other": "x" });
    // Deleted last, newest first, as the engine orders a destroy: the examples refer to each other (a coupon's product).
    const made: { u: string; id: string; props: Record<string, unknown> }[] = [];
    for (const { kind } of modules) {
      const r = registered.find((x) => x.type === token(kind.type));
      if (!r) throw new Error(`${kind.type} was not registered`);
      const u = urn(kind.type, `${kind.key}-env`);
      const checked = await host.check(u, {}, r.inputs);
      answers.push(checked);
      if (checked.failures.length) throw new Error(`${kind.type}: check failed: ${JSON.stringify(checked.failures)}`);
      const one = await host.create(u, checked.inputs);
      answers.push(one);
      created.push(kind.type);
      answers.push(await host.diff(u, one.id, one.props, checked.inputs));
      if (kind.refresh) answers.push(await host.read(u, one.id, one.props));
      made.push({ u, id: one.id, props: one.props });
    }
    for (const m of made.reverse()) await host.delete(m.u, m.id, m.props);
  } finally {
    host.stop();
  }
  // process.exit() after a write to a pipe drops what the kernel has not taken yet (writes to pipes are
  // asynchronous): the line is ~150 KB, past a pipe's 64 KB, so the exit waits for the write's callback.
  const line = `${JSON.stringify({ registered, answers, created, hostOutput: host.output })}\n`;
  await new Promise<void>((resolve, reject) => process.stdout.write(line, (err) => (err ? reject(err) : resolve())));
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
