import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, start } from "./helpers";

// Churn reason codes over real HTTP: create (201, as the vendor's suite reads it from a real site), list by position,
// read, update, delete ({"ok":"ok"}); unique codes; the refusals in the published error list.

const NOW = new Date("2026-03-01T10:00:00Z");

async function site(): Promise<Simulator> {
  const sim = await start({ now: () => NOW });
  sim.addReasonCode({ id: 2, code: "LARGE", description: "This is too complicated", position: 1 });
  sim.addReasonCode({ id: 1, code: "CH1", description: "This doesnt meet my needs", position: 2 });
  return sim;
}

describe("POST /reason_codes.json", () => {
  it("the published example: 201 with the code, after the last one unless a position is given", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/reason_codes.json", {
      body: { reason_code: { code: "NOTHANKYOU", description: "No thank you!", position: 5 } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      reason_code: {
        id: expect.any(Number),
        site_id: 1,
        code: "NOTHANKYOU",
        description: "No thank you!",
        position: 5,
        created_at: "2026-03-01T10:00:00Z",
        updated_at: "2026-03-01T10:00:00Z",
      },
    });
    const next = await call(sim, "POST", "/reason_codes.json", { body: { reason_code: { code: "PRICE", description: "Too dear" } } });
    expect(next.body.reason_code.position).toBe(6);
    expect([1, 2]).not.toContain(next.body.reason_code.id);
  });

  const RULES: [string, unknown, string[]][] = [
    ["nothing (the published example's blanks)", { reason_code: {} }, ["Code: cannot be blank.", "Description: cannot be blank."]],
    [
      "a code taken (the published wording)",
      { reason_code: { code: "CH1", description: "again" } },
      ["Code: This code is already in use."],
    ],
    ["a blank code", { reason_code: { code: " ", description: "x" } }, ["Code: cannot be blank."]],
    [
      "a position that is not a whole number",
      { reason_code: { code: "X", description: "x", position: 1.5 } },
      ["Position: must be an integer."],
    ],
    ["no reason_code object", {}, ["reason_code must be an Object"]],
  ];
  it.each(RULES)("%s: 422 %j, nothing made", async (_what, body, errors) => {
    const sim = await site();
    const res = await call(sim, "POST", "/reason_codes.json", { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors });
    expect(sim.reasonCodes()).toHaveLength(2);
  });
});

describe("reading, updating and deleting", () => {
  it("the list is by position, then id (the published example is in position order)", async () => {
    const sim = await site();
    sim.addReasonCode({ id: 5, code: "HAN99", description: "Hard to setup", position: 2 });
    const res = await call(sim, "GET", "/reason_codes.json");
    expect(res.body.map((r: any) => [r.reason_code.id, r.reason_code.code, r.reason_code.position])).toEqual([
      [2, "LARGE", 1],
      [1, "CH1", 2],
      [5, "HAN99", 2],
    ]);
    expect((await call(sim, "GET", "/reason_codes.json?per_page=1&page=2")).body.map((r: any) => r.reason_code.id)).toEqual([1]);
  });

  it("read by id; an unknown or malformed id is a 404", async () => {
    const sim = await site();
    expect((await call(sim, "GET", "/reason_codes/1.json")).body.reason_code.code).toBe("CH1");
    for (const id of ["0", "99", "CH1"]) expect((await call(sim, "GET", `/reason_codes/${id}.json`)).status).toBe(404);
  });

  it("update changes what it gives; another code's is refused", async () => {
    const sim = await site();
    const res = await call(sim, "PUT", "/reason_codes/1.json", { body: { reason_code: { code: "WELCOME", position: 9 } } });
    expect(res.status).toBe(200);
    expect(res.body.reason_code).toMatchObject({ id: 1, code: "WELCOME", description: "This doesnt meet my needs", position: 9 });
    const taken = await call(sim, "PUT", "/reason_codes/1.json", { body: { reason_code: { code: "LARGE" } } });
    expect(taken.status).toBe(422);
    expect(taken.body).toEqual({ errors: ["Code: This code is already in use."] });
    expect((await call(sim, "PUT", "/reason_codes/1.json", { body: { reason_code: { code: "WELCOME" } } })).status).toBe(200);
    expect((await call(sim, "PUT", "/reason_codes/77.json", { body: { reason_code: { code: "X" } } })).status).toBe(404);
  });

  it("delete answers {ok: ok} and the code is gone at once (and its code free again); twice is a 404", async () => {
    const sim = await site();
    const res = await call(sim, "DELETE", "/reason_codes/2.json");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: "ok" });
    expect(sim.reasonCodes().map((r) => r.code)).toEqual(["CH1"]);
    expect((await call(sim, "DELETE", "/reason_codes/2.json")).status).toBe(404);
    expect((await call(sim, "POST", "/reason_codes.json", { body: { reason_code: { code: "LARGE", description: "again" } } })).status).toBe(
      201,
    );
  });

  it.each([
    ["a code taken", { code: "CH1", description: "x" }, /code 'CH1' exists/],
    ["a blank description", { code: "NEW", description: "" }, /description/],
    ["an id taken", { id: 1, code: "NEW", description: "x" }, /id 1 is taken/],
  ])("addReasonCode refuses %s", async (_what, input, message) => {
    const sim = await site();
    expect(() => sim.addReasonCode(input)).toThrow(message);
  });
});
