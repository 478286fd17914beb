/**
 * What `npm pack` puts in the tarball, without lifecycle scripts (`prepack` would rebuild dist/ under the other
 * tests' feet): the test of the tarball's contents and the benchmark's size figure both read it.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");

/** One entry of `npm pack --json`. */
export interface Packed {
  readonly filename: string;
  /** The .tgz's bytes. */
  readonly size: number;
  readonly unpackedSize: number;
  readonly entryCount: number;
  readonly files: readonly { readonly path: string; readonly size: number }[];
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** `npm pack --json --ignore-scripts` of the repository: a dry run, or the tarball written into `destination`. */
export function npmPack(o: { destination?: string } = {}): Packed {
  const args = ["pack", "--json", "--ignore-scripts", ...(o.destination ? ["--pack-destination", o.destination] : ["--dry-run"])];
  const out = execFileSync(npm, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  // npm prints the JSON array on stdout (notices go to stderr).
  const [packed] = JSON.parse(out.slice(out.indexOf("["))) as Packed[];
  return packed;
}

/** "492.1 kB" the way npm prints sizes (powers of 1000). */
export function kB(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}
