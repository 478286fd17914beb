import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Duplex } from "node:stream";
import tls from "node:tls";

/** A throwaway self-signed certificate for localhost, made with openssl for this run only. */
export function throwawayCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), "billing-bench-tls-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-days",
        "1",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(path.join(dir, "key.pem")), cert: readFileSync(path.join(dir, "cert.pem")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An https agent that sends every connection to 127.0.0.1:port whatever the
 * host name (the vendor SDK builds https://{site}.chargify.com itself), and
 * trusts the throwaway certificate. Keep-alive, as the vendor's axios would use.
 */
export function loopbackAgent(port: number, ca: Buffer): https.Agent {
  class Loopback extends https.Agent {
    override createConnection(options: https.RequestOptions): Duplex {
      return tls.connect({ ...(options as tls.ConnectionOptions), host: "127.0.0.1", port, servername: "localhost", ca });
    }
  }
  return new Loopback({ keepAlive: true, maxSockets: 4 });
}
