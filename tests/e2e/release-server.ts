import { createReadStream, existsSync, mkdtempSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { PLUGIN_DOWNLOAD_URL, REPOSITORY } from "../../plugin/schema";
import { writeReleaseAssets } from "../../scripts/release-assets";

/**
 * A local HTTP server laid out like the project's GitHub releases
 * (`/<owner>/<repo>/releases/download/v<version>/<asset>`), serving the assets release.yml attaches
 * (scripts/release-assets.ts), and the CLI's environment that sends the schema's pluginDownloadURL there:
 * the only difference from a user's machine is the host, through the CLI's own override variable.
 */
export interface ReleaseServer {
  /** The release's download URL of `version` on this server (what `pulumi plugin install --server` takes). */
  readonly downloadUrl: string;
  /** Every path asked for, in order. */
  readonly requests: string[];
  /** PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, mapping github.com to this server; automatic plugin acquisition on. */
  readonly env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

const GITHUB = "https://github.com/";

export async function startReleaseServer(pluginTarball: string, version: string): Promise<ReleaseServer> {
  const releasePath = `${REPOSITORY.slice(GITHUB.length)}/releases/download/v${version}`;
  const dir = mkdtempSync(path.join(tmpdir(), "billing-release-"));
  writeReleaseAssets(path.join(dir, releasePath), pluginTarball, version);
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push(url);
    const file = path.join(dir, url);
    if (req.method !== "GET" || !file.startsWith(dir + path.sep) || !existsSync(file)) {
      res.writeHead(404).end("Not Found");
      return;
    }
    // The CLI checks the bytes it copied against the length the server announced.
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
  const base = `http://127.0.0.1:${port}/`;
  if (!PLUGIN_DOWNLOAD_URL.startsWith(GITHUB)) throw new Error(`pluginDownloadURL ${PLUGIN_DOWNLOAD_URL} is not on ${GITHUB}`);
  return {
    downloadUrl: base + releasePath,
    requests,
    env: {
      // The CLI's format: regexp=URL, named groups substituted (sdk/go/common/workspace/plugins.go).
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^https://github\\.com/(?P<rest>.+)$=${base}\${rest}`,
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
