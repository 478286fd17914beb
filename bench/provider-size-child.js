// Figure 4's measured process (plain CommonJS so it runs unchanged in the repo and in a
// consumer folder where the package is installed from its tarball): constructs each resource
// under pulumi.runtime.setMocks, so the real closure serialization runs, and prints the byte
// size of each type's __provider as JSON.
const pulumi = require("@pulumi/pulumi");

async function main() {
  const sizes = {};
  pulumi.runtime.setMocks(
    {
      newResource: (a) => {
        if (typeof a.inputs.__provider === "string") sizes[a.type.split(":").pop()] = Buffer.byteLength(a.inputs.__provider);
        return { id: `${a.name}-id`, state: a.inputs };
      },
      call: (a) => a.inputs,
    },
    "bench",
    "bench",
    true,
  );
  const billing = require("pulumi-subscription-billing");
  // Every kind of the registry, each with its declared example.
  const kinds = Object.values(billing.KINDS).map((m) => m.kind);
  for (const kind of kinds) new billing[kind.type](kind.key, kind.example);
  for (let i = 0; i < 400 && Object.keys(sizes).length < kinds.length; i++) await new Promise((r) => setTimeout(r, 25));
  process.stdout.write(JSON.stringify(sizes) + "\n");
  process.exit(0);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
