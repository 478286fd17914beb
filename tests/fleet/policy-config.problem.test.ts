import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PolicyConfigError, policyConfigProblem, policyConfigsBySite } from "../../fleet/policy-config";

/** What policyConfigProblem says of each file it is given, word for word. */
describe("policyConfigProblem", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "billing-fleet-policy-problem-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const noObject =
    'holds no JSON object: a policy pack config is an object, policy name → its config, e.g. { "webhooks-stay-enabled-in-production": { "production": true } }';

  it.each([
    ["an object", '{ "p": { "production": true } }', undefined],
    ["an empty object", "{}", undefined],
    ["a number", "3", noObject],
    ["zero", "0", noObject],
    ["null", "null", noObject],
    ["a string", '"p"', noObject],
    ["true", "true", noObject],
    ["an array", "[{}]", noObject],
  ])("a file holding %s: %s", async (_, text, problem) => {
    const file = path.join(dir, "config.json");
    await writeFile(file, text);
    expect(await policyConfigProblem(file)).toBe(problem && `${file} ${problem}`);
  });

  it("a file that cannot be read (a directory) is named with the error's code", async () => {
    expect(await policyConfigProblem(dir)).toBe(`${dir} cannot be read (EISDIR)`);
  });

  it("a missing file does not exist", async () => {
    const file = path.join(dir, "absent.json");
    expect(await policyConfigProblem(file)).toBe(`${file} does not exist`);
  });
});

describe("PolicyConfigError", () => {
  it("is named so", () => {
    const err = (() => {
      try {
        policyConfigsBySite([{ name: "us", stack: "us" }], { operation: "up", cli: ["/a.json"] });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(PolicyConfigError);
    expect(err).toMatchObject({ name: "PolicyConfigError" });
  });
});
