/**
 * The files a GitHub release of this package carries, named as their users look for them:
 *
 *   pulumi-resource-billing-v<version>-<os>-<arch>.tar.gz   the provider plugin, for linux and darwin,
 *                                                          amd64 and arm64: the name `pulumi plugin install
 *                                                          resource billing <version>` (and a program's
 *                                                          first preview) downloads from the schema's
 *                                                          pluginDownloadURL
 *   pulumi-billing-sdk-<lang>-v<version>.tar.gz             the generated SDKs (sdk-gen/go, sdk-gen/python,
 *                                                          sdk-gen/nodejs), each unpacking to <lang>/
 *
 * The four plugin assets hold the same bytes: `npm run plugin:pack`'s tarball is a POSIX sh launcher
 * over an installed node_modules, with no native code, so it is the same on every platform that has
 * `sh` and Node 22.18+. Windows is not offered: the CLI would look for pulumi-resource-billing.exe
 * (or a .cmd), and the launcher is a sh script.
 *
 * Usage (after `npm run build`): ts-node --transpile-only scripts/release-assets.ts <outDir>
 * prints each asset's absolute path, one a line.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pack } from "./plugin-pack";

const ROOT = path.resolve(__dirname, "..");
const pkg: { version: string } = require("../package.json");

/** The platforms the plugin is published for, in the CLI's GOOS/GOARCH spelling. */
export const PLUGIN_PLATFORMS: ReadonlyArray<{ os: "linux" | "darwin"; arch: "amd64" | "arm64" }> = [
  { os: "linux", arch: "amd64" },
  { os: "linux", arch: "arm64" },
  { os: "darwin", arch: "amd64" },
  { os: "darwin", arch: "arm64" },
];

/** The generated SDKs archived with each release (directories under sdk-gen/). */
export const SDK_LANGUAGES = ["go", "python", "nodejs"] as const;

/** The asset name `pulumi plugin install` asks a release for: pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz. */
export function pluginAssetName(version: string, os: string, arch: string): string {
  return `pulumi-resource-billing-v${version}-${os}-${arch}.tar.gz`;
}

export function sdkAssetName(version: string, language: string): string {
  return `pulumi-billing-sdk-${language}-v${version}.tar.gz`;
}

/** Build artefacts that can sit in a working copy's sdk-gen/ and are not part of an SDK's source. */
const SDK_EXCLUDES = ["node_modules", "bin", "__pycache__", "*.pyc", "*.egg-info", "build"];

/**
 * Writes the release assets for `version` into `outDir` from an already built plugin tarball and the
 * SDK sources under `sdkRoot`; returns their absolute paths (plugin platforms first, then the SDKs).
 */
export function writeReleaseAssets(outDir: string, pluginTarball: string, version: string, sdkRoot = path.join(ROOT, "sdk-gen")): string[] {
  const out = path.resolve(outDir);
  mkdirSync(out, { recursive: true });
  const written: string[] = [];
  for (const { os, arch } of PLUGIN_PLATFORMS) {
    const asset = path.join(out, pluginAssetName(version, os, arch));
    copyFileSync(pluginTarball, asset);
    written.push(asset);
  }
  for (const language of SDK_LANGUAGES) {
    if (!existsSync(path.join(sdkRoot, language))) throw new Error(`${path.join(sdkRoot, language)} is missing: run \`npm run sdk-gen\``);
    const asset = path.join(out, sdkAssetName(version, language));
    rmSync(asset, { force: true });
    const excludes = SDK_EXCLUDES.map((pattern) => `--exclude=${pattern}`);
    execFileSync("tar", ["-czf", asset, ...excludes, "-C", sdkRoot, language], { stdio: ["ignore", "ignore", "inherit"] });
    written.push(asset);
  }
  return written;
}

/**
 * Every release asset of this checkout's version in `outDir`: packs the plugin (scripts/plugin-pack.ts,
 * which needs `npm run build` first), copies it to each platform's name, archives the generated SDKs.
 */
export function releaseAssets(outDir: string): string[] {
  return writeReleaseAssets(outDir, pack(), pkg.version);
}

if (require.main === module) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error("usage: ts-node --transpile-only scripts/release-assets.ts <outDir>");
    process.exit(2);
  }
  for (const asset of releaseAssets(outDir)) console.log(asset);
}
