import { createServer, request, type Server } from "node:http";

export interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  requestBody: unknown;
  status: number;
  responseBody: unknown;
  /** The answer as sent: its text and content type, for the contract check of non-JSON bodies. */
  responseText: string;
  responseType: string | null;
}

const parse = (text: string): unknown => {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export interface RecordingProxy {
  readonly url: string;
  /** In the order the answers came back. */
  readonly exchanges: Exchange[];
  /** The most requests in flight at once, counted from arrival to answer as the service counts them. */
  readonly peak: number;
  close(): Promise<void>;
}

/**
 * A recording HTTP proxy in front of the simulator: every request the SDK
 * sends and every answer it gets, as they crossed the wire.
 */
export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  const upstream = new URL(target);
  let inFlight = 0;
  let peak = 0;
  const server: Server = createServer((req, res) => {
    peak = Math.max(peak, ++inFlight);
    let open = true;
    const finish = () => {
      if (open) inFlight--;
      open = false;
    };
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const out = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          const back: Buffer[] = [];
          up.on("data", (c) => back.push(c));
          up.on("end", () => {
            const text = Buffer.concat(back).toString("utf8");
            exchanges.push({
              method: req.method ?? "GET",
              url: req.url ?? "/",
              headers: req.headers,
              requestBody: parse(body.toString("utf8")),
              status: up.statusCode ?? 0,
              responseBody: parse(text),
              responseText: text,
              responseType: up.headers["content-type"] ?? null,
            });
            finish();
            res.writeHead(up.statusCode ?? 502, up.headers);
            res.end(text);
          });
        },
      );
      out.on("error", () => {
        finish();
        res.destroy();
      });
      out.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    get peak() {
      return peak;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
