import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/** A socket in front of the simulator that rewrites a JSON answer that succeeded, whatever its shape (lists too). */
export async function rewritingProxy(
  simulatorUrl: string,
  rewrite: (method: string, path: string, body: unknown) => unknown,
): Promise<string> {
  const target = new URL(simulatorUrl);
  const server = createServer((req, res) => {
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", () => {
        let text = Buffer.concat(chunks).toString("utf8");
        const status = answer.statusCode ?? 502;
        if (status < 300 && text !== "") text = JSON.stringify(rewrite(req.method ?? "", (req.url ?? "").split("?")[0], JSON.parse(text)));
        res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        res.end(text);
      });
    });
    // A connection the simulator reset is reset to the client too: the same lost answer.
    out.on("error", () => req.socket.resetAndDestroy());
    req.pipe(out);
  });
  onTestFinished(
    () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  );
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
