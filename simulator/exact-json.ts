/**
 * JSON with exact integers. The service's ids are int64; a JavaScript number
 * rounds anything past 2^53, so a replay of webhook 9007199254740993 parsed
 * with plain JSON.parse would queue 9007199254740992: a different webhook.
 * Node 22 gives the reviver each number's source text and lets a serializer
 * write raw JSON, which is all that exactness needs.
 */

interface ReviverContext {
  source?: string;
}

const rawJSON = (JSON as unknown as { rawJSON?: (text: string) => unknown }).rawJSON;

/** An integer beyond Number.MAX_SAFE_INTEGER, kept as its decimal text; serializes back to the same digits. */
export class ExactInt {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return jsonInteger(this.text);
  }
}

// A number past 2^53 has at least 16 digits. Bodies without such a run (nearly
// all of them) skip the reviver, which costs several times a plain parse.
const LONG_DIGIT_RUN = /\d{16}/;
const INTEGER_TEXT = /^-?\d+$/;

/**
 * JSON.parse, except that an integer literal too large for a double becomes an
 * ExactInt. Without Node 22's reviver context (Node 20) such a number stays a
 * rounded double; validation then refuses it as not a safe integer, which is loud
 * rather than wrong.
 */
export function parseJson(text: string): unknown {
  if (!LONG_DIGIT_RUN.test(text)) return JSON.parse(text);
  return JSON.parse(text, (_key: string, value: unknown, ctx?: ReviverContext) => {
    if (typeof value === "number" && !Number.isSafeInteger(value) && ctx?.source !== undefined && INTEGER_TEXT.test(ctx.source)) {
      return new ExactInt(ctx.source);
    }
    return value;
  });
}

/** A decimal integer for JSON.stringify: a plain number when exact, raw JSON text otherwise. */
export function jsonInteger(text: string): unknown {
  const n = Number(text);
  if (Number.isSafeInteger(n)) return n;
  if (!rawJSON) throw new Error(`cannot write the integer ${text} exactly: JSON.rawJSON needs Node 22 or later`);
  return rawJSON(text);
}
