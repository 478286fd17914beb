import { describe, expect, it } from "vitest";
import { nodeVersionProblem } from "../../plugin/node-version";

// pulumi-resource-billing refuses a Node.js older than 22.18 (the package's engines) with one message
// naming the node that runs it and what to do, rather than failing later in a dependency.

const NODE = "/opt/node/bin/node";
const refusal = (version: string) =>
  `pulumi-resource-billing needs Node.js 22.18 or later; ${NODE} is v${version}. Put a newer Node first on PATH (or set BILLING_PLUGIN_NODE).`;

describe("the plugin's Node.js check", () => {
  it.each(["22.17.9", "22.17.0", "22.0.0", "21.99.0", "20.19.5", "18.20.8", "10.24.1"])("refuses %s", (version) => {
    expect(nodeVersionProblem(version, NODE)).toBe(refusal(version));
  });

  it.each(["22.18.0", "22.18.1", "22.19.0", "22.23.3", "23.0.0", "23.1.0", "24.11.1", "25.0.0"])("accepts %s", (version) => {
    expect(nodeVersionProblem(version, NODE)).toBeUndefined();
  });
});
