import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * A tiny HTTP server on 127.0.0.1 that answers with the vendor's published
 * examples (tests/fixtures/vendor) byte for byte: the fixture's exact bytes,
 * its status, and `content-type: application/json` for a .json file,
 * `text/plain` for a .txt one. Nothing else: no simulator logic in between.
 */

export const VENDOR_DIR = path.resolve(__dirname, "../fixtures/vendor");

export interface IndexEntry {
  readonly file: string;
  readonly method: string;
  readonly path: string;
  readonly status: number | null;
  readonly kind: "response" | "request";
  readonly source: string;
  readonly notes: string;
}

export const VENDOR_INDEX: readonly IndexEntry[] = JSON.parse(readFileSync(path.join(VENDOR_DIR, "index.json"), "utf8"));

/** A fixture's exact bytes. */
export const fixtureBytes = (file: string): Buffer => readFileSync(path.join(VENDOR_DIR, file));

/** A fixture's published status (index.json). */
export function fixtureStatus(file: string): number {
  const e = VENDOR_INDEX.find((x) => x.file === file);
  if (!e || e.status === null) throw new Error(`no response fixture ${file} in index.json`);
  return e.status;
}

/** What a route answers: a fixture file (its status unless overridden), or a body written by a test. */
export type Reply =
  | { readonly file: string; readonly status?: number }
  | { readonly status: number; readonly text: string; readonly contentType: string };

export interface Route {
  readonly method: string;
  /** The request's path without its query: an exact string or a pattern. */
  readonly path: string | RegExp;
  readonly reply: Reply;
}

export interface SeenRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly path: string;
  /** The body as sent, raw (for exact int64 digits). */
  readonly text: string;
}

export interface FixtureServer {
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Replaces the routes; every request must match one, or it gets a 599 that fails the test. */
  serve(routes: readonly Route[]): void;
  close(): Promise<void>;
}

export const fixture = (file: string, status?: number): Reply => (status === undefined ? { file } : { file, status });

function render(reply: Reply): { status: number; body: Buffer; contentType: string } {
  if ("file" in reply) {
    const contentType = reply.file.endsWith(".json") ? "application/json" : reply.file.endsWith(".txt") ? "text/plain" : "";
    if (!contentType) throw new Error(`fixture ${reply.file} is neither .json nor .txt`);
    return { status: reply.status ?? fixtureStatus(reply.file), body: fixtureBytes(reply.file), contentType };
  }
  return { status: reply.status, body: Buffer.from(reply.text, "utf8"), contentType: reply.contentType };
}

export async function startFixtureServer(): Promise<FixtureServer> {
  let routes: readonly Route[] = [];
  const requests: SeenRequest[] = [];

  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const url = req.url ?? "/";
    const pathOnly = url.split("?")[0];
    const method = req.method ?? "";
    requests.push({ method, url, path: pathOnly, text });
    const route = routes.find((r) => r.method === method && (typeof r.path === "string" ? r.path === pathOnly : r.path.test(pathOnly)));
    if (!route) {
      // 599: no published status, so an unrouted request can never pass for a vendor answer.
      res.writeHead(599, { "content-type": "text/plain" }).end(`fixture server: no route for ${method} ${pathOnly}`);
      return;
    }
    const { status, body, contentType } = render(route.reply);
    res.writeHead(status, { "content-type": contentType, "content-length": body.length }).end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    serve(r) {
      routes = r;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
