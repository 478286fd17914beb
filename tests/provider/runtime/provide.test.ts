import { describe, expect, it } from "vitest";
import { z } from "zod";
import { UNKNOWN } from "../../../provider/engine";
import { type Context, declareKind } from "../../../provider/kinds/kind";
import { kinds } from "../../../provider/runtime";
import { provide, unknownAt } from "../../../provider/runtime/provide";
import { configuredWith } from "./configured";

/** A kind's runtime (provider/runtime/provide.ts): a recorded state it cannot read, and a `site` of the wrong type. */

describe("provide: a kind's runtime (provider/runtime/provide.ts)", () => {
  const hook = { url: "https://a.example.com/h", events: ["payment_failure"] };
  const configured = () => configuredWith({ "billing:apiKey": "sk_live_PROVIDE_1", "billing:baseUrl": "http://127.0.0.1:9" });

  it("a recorded state this version cannot read: diff says which fields and what to do, whole, before any request", async () => {
    await expect(kinds.webhookEndpoint.diff(configured(), "7", { endpointId: "seven", url: 3 }, hook)).rejects.toThrow(
      new Error(
        "WebhookEndpoint 7: the recorded state is not one this version of pulumi-subscription-billing reads " +
          "(endpointId: Invalid input: expected number, received string; url: Invalid input: expected string, received number; events: is required). " +
          "Nothing was sent. If the package was downgraded, upgrade it again.",
      ),
    );
  });

  it("a site of the wrong type is one failure: the schema's, not also the site check's", async () => {
    expect((await kinds.webhookEndpoint.check(configured(), {}, { ...hook, site: 5 })).failures).toEqual([
      { property: "site", reason: "must be the name of an entry of the stack config billing:sites (a non-empty string), got 5" },
    ]);
    expect((await kinds.webhookEndpoint.check(configured(), {}, { ...hook, site: "eu" })).failures).toEqual([
      {
        property: "site",
        reason:
          "site \"eu\" is not an entry of the stack config billing:sites (billing:sites is not set; set it with `pulumi config set --secret billing:sites '{…}'`)",
      },
    ]);
  });
});

/** A kind that declares only what every kind must: no read, no import, no unfinished work, no checks at the service. */
const shelf = {
  kind: declareKind({
    key: "shelf",
    type: "Shelf",
    summary: "A shelf.",
    inputs: z.object({ name: z.string(), boards: z.array(z.object({ width: z.number() })).optional() }),
    outputs: z.object({ name: z.string() }),
    replaceOn: [],
    refresh: false,
    onDelete: "nothing",
    example: { name: "oak" },
  }),
  operations: {
    state: z.object({ name: z.string() }),
    recordedInputs: (s: { name: string }) => ({ name: s.name }),
    create: async (_ctx: Context, inputs: { name: string }) => ({ id: "1", state: { name: inputs.name } }),
    update: async (_ctx: Context, _id: string, _s: { name: string }, inputs: { name: string }) => ({ name: inputs.name }),
    del: async () => {},
  },
};

describe("provide: a kind that declares only what every kind must", () => {
  const provided = provide(shelf);

  it("equal inputs are no change, when the kind has no unfinished work to resume", async () => {
    expect(await provided.diff({}, "1", { name: "oak" }, { name: "oak" })).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect((await provided.diff({}, "1", { name: "oak" }, { name: "elm" })).changes).toBe(true);
  });

  it("pulumi import of a kind without an import says the kind cannot be imported", async () => {
    await expect(provided.import({}, "oak")).rejects.toThrow(new Error("Shelf cannot be imported."));
  });

  it("inputs that do not parse at create are a defect named with each failing property, not sent", async () => {
    await expect(provided.create({}, { name: 3, boards: [{ width: "x" }] })).rejects.toThrow(
      new Error(
        "Shelf: inputs that passed check do not parse: name: Invalid input: expected string, received number; " +
          "boards.0.width: Invalid input: expected number, received string",
      ),
    );
  });

  it("refresh without a read keeps the recorded props", async () => {
    expect(await provided.read({}, "1", { name: "oak" })).toEqual({ id: "1", props: { name: "oak" } });
  });
});

describe("unknownAt: whether an issue's path is, or passes through, a value the engine does not know yet", () => {
  it.each([
    ["the value itself", { boards: UNKNOWN }, ["boards"], true],
    ["a value on the way", { boards: UNKNOWN }, ["boards", 0, "width"], true],
    ["a list holding one", { boards: [{ width: UNKNOWN }] }, ["boards"], true],
    ["a known value", { boards: [{ width: 3 }] }, ["boards", 0, "width"], false],
    ["a null on the way", { boards: null }, ["boards", 0, "width"], false],
    ["a number on the way", { boards: 4 }, ["boards", 0], false],
    ["a path past what is there", { boards: [] }, ["boards", 0, "width"], false],
  ])("%s", (_what, value, path, expected) => {
    expect(unknownAt(value, path)).toBe(expected);
  });
});
