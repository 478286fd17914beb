import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BillingApiError } from "../../../sdk";
import { failureOf } from "../../../sdk/transport";
import { json, server, transportOf } from "./bare-server";

/**
 * The transport (sdk/transport.ts) on the wire, against a bare HTTP server that answers whatever a test says and
 * records what it was sent: the query, headers and body of a request, and an answer as the operations read it.
 */

describe("Transport: what goes on the wire", () => {
  it("a query's defined values, URL-encoded after the base path; undefined ones left out", async () => {
    const s = await server(json(200, {}));
    const t = transportOf(`${s.url}/api/v1`);
    await t.send({ method: "GET", path: "/x.json", query: { a: "1 2", b: undefined, c: 3 }, repeatable: true });
    expect(s.seen.map((q) => q.url)).toEqual(["/api/v1/x.json?a=1+2&c=3"]);
  });

  it("a path undici cannot send (a space in it): not sent, so nothing may have applied, and nothing reached the server", async () => {
    const s = await server(json(200, {}));
    const t = transportOf(s.url);
    const x = await t.send({ method: "POST", path: "/a b.json", body: {}, repeatable: false });
    expect(x.outcome).toMatchObject({ kind: "not-sent", code: "UND_ERR_INVALID_ARG" });
    // Not repeated: it would fail the same way, and each attempt keeps one of undici's connections (sdk/retry.ts).
    expect({ attempts: x.attempts, mayHaveApplied: x.mayHaveApplied }).toEqual({ attempts: 1, mayHaveApplied: false });
    expect(s.seen).toEqual([]);
  });

  it("no query, or one with only undefined values: no '?' at all", async () => {
    const s = await server(json(200, {}));
    const t = transportOf(s.url);
    await t.send({ method: "GET", path: "/x.json", repeatable: true });
    await t.send({ method: "GET", path: "/y.json", query: { b: undefined }, repeatable: true });
    expect(s.seen.map((q) => q.url)).toEqual(["/x.json", "/y.json"]);
  });

  it("a body is sent as JSON with its content-type; a request without one has neither", async () => {
    const s = await server(json(200, {}));
    const t = transportOf(s.url);
    await t.send({ method: "PUT", path: "/a.json", body: { x: [1, "two"] }, repeatable: true });
    await t.send({ method: "GET", path: "/b.json", repeatable: true });
    const [put, get] = s.seen;
    expect([put.method, put.text, put.headers["content-type"], put.headers.accept]).toEqual([
      "PUT",
      '{"x":[1,"two"]}',
      "application/json",
      "application/json",
    ]);
    expect(put.headers.authorization).toBe(`Basic ${Buffer.from("k:x").toString("base64")}`);
    expect([get.method, get.text, get.headers["content-type"], get.headers.accept]).toEqual(["GET", "", undefined, "application/json"]);
  });
});

describe("Transport: an answer as the operations read it", () => {
  it("status, parsed body and the raw text of a refusal; an empty 2xx body is undefined", async () => {
    const s = await server((req, res) => {
      if (req.url === "/empty") res.writeHead(204).end();
      else res.writeHead(422, { "content-type": "text/plain" }).end("<html><title> Bad\n gateway </title></html>");
    });
    const t = transportOf(s.url);
    expect((await t.send({ method: "DELETE", path: "/empty", repeatable: true })).outcome).toEqual({
      kind: "success",
      status: 204,
      body: undefined,
    });
    const x = await t.send({ method: "GET", path: "/refused", repeatable: true });
    expect(x).toEqual({
      outcome: { kind: "refused", status: 422, body: undefined, text: "<html><title> Bad\n gateway </title></html>" },
      mayHaveApplied: false,
      attempts: 1,
    });
    // The gateway's page by its title, on one line.
    expect(failureOf({ method: "GET", path: "/refused" }, x)).toMatchObject({ status: 422, errors: ["Bad gateway"] });
  });

  it("two Retry-After headers: the first one is the wait", async () => {
    let n = 0;
    const s = await server((_q, res) => {
      n++;
      if (n === 1)
        res
          .writeHead(429, [
            ["retry-after", "0"],
            ["retry-after", "7"],
          ])
          .end("slow down");
      else res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const events: unknown[] = [];
    const t = transportOf(s.url, { onRetry: (e: { delayMs: number; reason: string }) => events.push([e.delayMs, e.reason]) });
    const x = await t.send({ method: "GET", path: "/r", repeatable: true });
    expect([x.outcome.kind, x.attempts]).toEqual(["success", 2]);
    expect(events).toEqual([[0, "429 rate limited (Retry-After: 0)"]]);
  });

  it("an onRetry that throws does not turn the retry into a failure", async () => {
    let n = 0;
    const s = await server((_q, res) => {
      n++;
      res.writeHead(n === 1 ? 503 : 200, { "content-type": "application/json" }).end("{}");
    });
    const t = transportOf(s.url, {
      onRetry: () => {
        throw new Error("logger down");
      },
    });
    const x = await t.send({ method: "GET", path: "/r", repeatable: true });
    expect(x).toEqual({ outcome: { kind: "success", status: 200, body: {} }, mayHaveApplied: true, attempts: 2 });
  });

  it("call(): a 2xx body parsed by the schema; another status a typed error", async () => {
    const s = await server((req, res) => {
      if (req.url === "/ok") json(200, { n: 1 })(req, res);
      else json(404, { errors: ["Not found"] })(req, res);
    });
    const t = transportOf(s.url);
    expect(await t.call({ method: "GET", path: "/ok", repeatable: true }, z.object({ n: z.number() }))).toEqual({ n: 1 });
    const err = await t.call({ method: "GET", path: "/no", repeatable: true }, z.object({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 404, errors: ["Not found"], method: "GET", path: "/no", mayHaveApplied: false });
  });
});
