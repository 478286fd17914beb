import { randomBytes } from "node:crypto";
import { STATUS_CODES } from "node:http";

/** One answer on the wire: a JSON body (the default) or text of a given type. */
export type Answer = { status: number; headers?: Record<string, string> } & (
  | { json: unknown }
  | { text: string; contentType: "text/plain" | "text/html" }
  | { empty: true }
);

export const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
  status,
  json: body,
  ...(headers ? { headers } : {}),
});
/**
 * An answer without a body, for the operations whose success the contract
 * publishes with no content (archiveOffer, unarchiveOffer, clearSite,
 * deleteMetafield; the vendor's SDKs type them `void`): no content type, length 0.
 */
export const empty = (status: number): Answer => ({ status, empty: true });
export const errorList = (status: number, ...errors: string[]): Answer => json(status, { errors });

/**
 * The service's 429, in the words of its API Guidelines: plain text, not the
 * JSON error list, with a reference for support. A client that parses every
 * error body as JSON breaks on it, which is the point of sending it.
 */
export function usageViolation(retryAfterSeconds?: number): Answer {
  return {
    status: 429,
    contentType: "text/plain",
    text: `Your request was denied due to a usage violation. You can track this request with support by referencing ${randomBytes(16).toString("hex")}`,
    ...(retryAfterSeconds !== undefined ? { headers: { "retry-after": String(retryAfterSeconds) } } : {}),
  };
}

/**
 * A 5xx. A 500 comes from the application, which answers in its own JSON
 * error list. 502/503/504 come from the load balancer in front of it when the
 * application does not answer: the proxy's stock HTML page (nginx wording).
 */
export function serverFailure(status: 500 | 502 | 503 | 504, retryAfterSeconds?: number): Answer {
  const headers = retryAfterSeconds !== undefined ? { "retry-after": String(retryAfterSeconds) } : undefined;
  if (status === 500) return json(500, { errors: ["Internal Server Error"] }, headers);
  const title = `${status} ${GATEWAY_TITLES[status] ?? STATUS_CODES[status]}`;
  return {
    status,
    contentType: "text/html",
    text: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n`,
    ...(headers ? { headers } : {}),
  };
}

const GATEWAY_TITLES: Record<number, string> = {
  502: "Bad Gateway",
  503: "Service Temporarily Unavailable",
  504: "Gateway Time-out",
};
