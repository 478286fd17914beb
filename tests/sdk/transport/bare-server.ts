import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";
import { resolveConnection } from "../../../sdk/options";
import { Transport } from "../../../sdk/transport";

/** A bare HTTP server that answers whatever a test says and records what it was sent, and a transport of it. */

export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly text: string;
}

export async function server(answer: (req: IncomingMessage, res: ServerResponse, text: string) => void) {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, text });
      answer(req, res, text);
    });
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  );
  return { url, seen };
}

export function transportOf(baseUrl: string, extra: Record<string, unknown> = {}) {
  const t = new Transport(resolveConnection({ baseUrl, apiKey: "k", retryBaseDelayMs: 1, ...extra }));
  onTestFinished(() => t.close());
  return t;
}

export const json =
  (status: number, body: unknown, headers: Record<string, string | string[]> = {}) =>
  (_q: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  };
