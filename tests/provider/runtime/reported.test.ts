import { afterEach, describe, expect, it } from "vitest";
import { productFamilyProvider } from "../../../provider";
import { type Simulator, startSimulator } from "../../../simulator";
import { captureOutput, configureRequest, KEY } from "../support";

/**
 * How the kinds' errors reach the user (provider/runtime/reported.ts): a 401 names the config key or environment
 * variable the refused credential came from, in one line, never its value; and the Node dynamic-provider host's echo
 * of a thrown error (`${err}: ${err.stack}` on its stderr, which the CLI prints under the stack beside the resource's
 * own error) is dropped for a user's error, kept for a defect.
 */

const WRONG = "sk_wrong_key_reported_7c1d";
const family = { handle: "rockets", name: "Rockets" };

let sim: Simulator | undefined;
let savedKey: string | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  if (savedKey === undefined) delete process.env.BILLING_API_KEY;
  else process.env.BILLING_API_KEY = savedKey;
});

async function familiesWith(config: (url: string) => Record<string, string>) {
  sim = await startSimulator({ apiKey: KEY });
  const families = { ...productFamilyProvider };
  await families.configure!(configureRequest(config(sim.url)));
  return { families, sim };
}

/** The error a create with `inputs` rejects with. */
const refusal = async (families: typeof productFamilyProvider, inputs: Record<string, unknown> = family) =>
  (await families.create(inputs).then(
    () => undefined,
    (e: unknown) => e,
  )) as Error;

describe("a 401: the credential refused, named by where it was set", () => {
  it("billing:apiKey: the key, the request and the command that sets it, in one line", async () => {
    const { families, sim } = await familiesWith((url) => ({ "billing:baseUrl": url, "billing:apiKey": WRONG }));
    const err = await refusal(families);
    expect(err.message).toBe(
      `the billing site ${new URL(sim.url).host} refused the API key from billing:apiKey (401 Unauthorized to GET /product_families/handle:rockets.json): ` +
        "run `pulumi config set --secret billing:apiKey <api-key>` with the site's API key",
    );
    expect(err.message).not.toContain(WRONG);
  });

  it("BILLING_API_KEY: the environment variable it came from", async () => {
    savedKey = process.env.BILLING_API_KEY;
    process.env.BILLING_API_KEY = WRONG;
    const { families } = await familiesWith((url) => ({ "billing:baseUrl": url }));
    const err = await refusal(families);
    expect(err.message).toMatch(
      /refused the API key from the environment variable BILLING_API_KEY \(401 Unauthorized to GET \/product_families\/handle:rockets\.json\): export BILLING_API_KEY=<api-key> with the site's API key$/,
    );
    expect(err.message).not.toContain(WRONG);
  });

  it("a billing:sites entry: the entry's key", async () => {
    const { families } = await familiesWith((url) => ({
      "billing:sites": JSON.stringify({ eu: { baseUrl: url, apiKey: WRONG } }),
    }));
    const err = await refusal(families, { ...family, site: "eu" });
    expect(err.message).toMatch(
      /^the billing site eu refused the API key from billing:sites\["eu"\]\.apiKey \(401 Unauthorized to GET \/product_families\/handle:rockets\.json\): set the site's apiKey in `pulumi config set --secret billing:sites '\{…\}'`/,
    );
    expect(err.message).not.toContain(WRONG);
  });

  it("any other refusal passes as it was", async () => {
    const { families } = await familiesWith((url) => ({ "billing:baseUrl": url, "billing:apiKey": KEY }));
    await families.create(family);
    const s = { familyId: 1, handle: "rockets", name: "Rockets", description: null, args: { name: "Rockets" } };
    await expect(families.diff!("1", s, { ...family, name: "Renamed" })).rejects.toThrow(/^product family `rockets` cannot be changed/);
  });
});

describe("the host's echo of a thrown error", () => {
  /** What the Node dynamic-provider host does with an error from check, diff, read or delete, then one more line. */
  const asTheHost = async (op: () => Promise<unknown>) =>
    captureOutput(async () => {
      const e = (await op().then(
        () => undefined,
        (err: unknown) => err,
      )) as Error;
      console.error(`${e}: ${e.stack}`);
      console.error("the next line");
      return e;
    });

  it("a user's error (a family rename refused at diff): dropped, once; the next line printed", async () => {
    const { families } = await familiesWith((url) => ({ "billing:baseUrl": url, "billing:apiKey": KEY }));
    const s = { familyId: 1, handle: "rockets", name: "Rockets", description: null, args: { name: "Rockets" } };
    const { result, text } = await asTheHost(() => families.diff!("1", s, { ...family, name: "Renamed" }));
    expect(result?.message).toMatch(/cannot be changed/);
    expect(text).toBe("the next line\n");
    // Dropped once: the same line printed again is someone else's, and shows.
    const again = await captureOutput(async () => console.error(`${result}: ${result?.stack}`));
    expect(again.text).toContain("cannot be changed");
  });

  it("a 401 at check (the preview of an update reads the family): dropped, its one-line message the engine's to print", async () => {
    const { families } = await familiesWith((url) => ({ "billing:baseUrl": url, "billing:apiKey": WRONG }));
    // A declared change: its check reads the family's id (a no-change check reads nothing).
    const { result, text } = await asTheHost(() => families.check!(family, { ...family, description: "Renamed" }));
    expect(result?.message).toMatch(/^the billing site \S+ refused the API key from billing:apiKey \(401 Unauthorized to GET /);
    expect(text).toBe("the next line\n");
  });

  it("a defect (a TypeError) keeps its echo: its stack is what a report needs", async () => {
    const { families } = await familiesWith((url) => ({ "billing:baseUrl": url, "billing:apiKey": KEY }));
    // State that is no object: reading it fails inside the runtime.
    const { text } = await asTheHost(() => families.diff!("1", null as never, family));
    expect(text).toMatch(/TypeError/);
    expect(text).toContain("the next line\n");
  });
});
