import { describe, expect, it } from "vitest";
import { type Answer, classifyAnswer, serviceMessages } from "../../sdk/outcome";
import { DUPLICATE_SUBMISSION } from "../../sdk/wire";

// The classifier's edges and the service's words from a page that is not JSON (found by `npm run mutate`, issue 24).

const text = (status: number, body: string): Answer => ({ status, body: undefined, text: body, retryAfter: undefined });

describe("classifyAnswer at the edges of each range", () => {
  it.each([
    [199, "refused"],
    [200, "success"],
    [299, "success"],
    [300, "refused"],
    [304, "refused"],
    [428, "refused"],
    [430, "refused"],
    [499, "refused"],
    [500, "ambiguous"],
  ] as const)("%i → %s", (status, kind) => {
    expect(classifyAnswer(text(status, "")).kind).toBe(kind);
  });

  it("the duplicate-submission words make a duplicate only on a 409", () => {
    const body = { errors: [DUPLICATE_SUBMISSION] };
    expect(classifyAnswer({ status: 422, body, text: "", retryAfter: undefined }).kind).toBe("refused");
    expect(classifyAnswer({ status: 409, body, text: "", retryAfter: undefined }).kind).toBe("duplicate");
  });

  it("a refusal keeps its status, body and text", () => {
    expect(classifyAnswer({ status: 404, body: { errors: ["x"] }, text: "{}", retryAfter: "3" })).toStrictEqual({
      kind: "refused",
      status: 404,
      body: { errors: ["x"] },
      text: "{}",
    });
  });
});

describe("serviceMessages from a page that is not JSON", () => {
  it("HTML without a title: its text without the tags, on one line", () => {
    expect(serviceMessages(classifyAnswer(text(502, "<html>\n<body><h1>Bad</h1>\n\n<p>gateway  here</p></body></html>")))).toEqual([
      "Bad gateway here",
    ]);
  });

  it("a tag between two words parts them", () => {
    expect(serviceMessages(classifyAnswer(text(502, "Bad<br>gateway")))).toEqual(["Bad gateway"]);
  });

  it("a title is matched whatever its case; the page's text is not added", () => {
    expect(serviceMessages(classifyAnswer(text(503, "<HTML><TITLE>Down  for\tmaintenance</TITLE><body>long story</body></HTML>")))).toEqual(
      ["Down for maintenance"],
    );
  });

  it("at most 1000 characters, then an ellipsis; exactly 1000 kept whole", () => {
    const [long] = serviceMessages(classifyAnswer(text(400, "x".repeat(1001))));
    expect(long).toBe(`${"x".repeat(1000)}…`);
    expect(serviceMessages(classifyAnswer(text(400, "y".repeat(1000))))).toEqual(["y".repeat(1000)]);
  });

  it("an empty text and no JSON: no words at all", () => {
    expect(serviceMessages(classifyAnswer(text(400, "")))).toEqual([]);
  });
});
