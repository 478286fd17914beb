import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pluginAssetName, writeReleaseAssets } from "../../scripts/release-assets";

/**
 * The release's files, without packing the plugin (that is `npm run plugin:pack`, exercised by the
 * plugin e2e): a stand-in tarball goes through the same naming and copying releaseAssets() does.
 */
const ROOT = path.join(__dirname, "../..");
const work = mkdtempSync(path.join(tmpdir(), "release-assets-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const tarList = (file: string): string[] =>
  execFileSync("tar", ["-tzf", file], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l !== "" && !l.endsWith("/"));

describe("release assets", () => {
  const plugin = path.join(work, "plugin.tar.gz");
  writeFileSync(plugin, "the plugin tarball's bytes");
  const out = path.join(work, "out");
  const assets = writeReleaseAssets(out, plugin, "1.2.3");

  it("the plugin under the four names pulumi plugin install asks for, then the three SDK archives", () => {
    expect(assets.map((a) => path.relative(out, a))).toEqual([
      "pulumi-resource-billing-v1.2.3-linux-amd64.tar.gz",
      "pulumi-resource-billing-v1.2.3-linux-arm64.tar.gz",
      "pulumi-resource-billing-v1.2.3-darwin-amd64.tar.gz",
      "pulumi-resource-billing-v1.2.3-darwin-arm64.tar.gz",
      "pulumi-billing-sdk-go-v1.2.3.tar.gz",
      "pulumi-billing-sdk-python-v1.2.3.tar.gz",
      "pulumi-billing-sdk-nodejs-v1.2.3.tar.gz",
    ]);
    for (const a of assets) expect(path.isAbsolute(a)).toBe(true);
    // The CLI's own spelling: pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz (pkg/workspace plugin download).
    expect(pluginAssetName("0.1.0", "linux", "amd64")).toBe("pulumi-resource-billing-v0.1.0-linux-amd64.tar.gz");
  });

  it("every platform's plugin asset is the one platform-independent tarball, byte for byte", () => {
    for (const a of assets.slice(0, 4)) expect(readFileSync(a, "utf8")).toBe("the plugin tarball's bytes");
  });

  it("each SDK archive unpacks to <lang>/ and holds every file git tracks under sdk-gen/<lang>", () => {
    for (const [i, lang] of ["go", "python", "nodejs"].entries()) {
      const listed = new Set(tarList(assets[4 + i]));
      const tracked = execFileSync("git", ["ls-files", `sdk-gen/${lang}`], { cwd: ROOT, encoding: "utf8" })
        .split("\n")
        .filter(Boolean)
        .map((f) => f.replace(/^sdk-gen\//, ""));
      expect(tracked.length).toBeGreaterThan(3);
      for (const f of listed) expect(f.startsWith(`${lang}/`)).toBe(true);
      expect(tracked.filter((f) => !listed.has(f))).toEqual([]);
    }
    expect(tarList(assets[4])).toContain("go/billing/go.mod");
  });

  it("leaves a working copy's build leftovers (node_modules, bin, __pycache__) out of the SDK archives", () => {
    const sdkRoot = path.join(work, "sdk-gen");
    for (const lang of ["go", "python", "nodejs"]) {
      mkdirSync(path.join(sdkRoot, lang), { recursive: true });
      writeFileSync(path.join(sdkRoot, lang, "source.txt"), lang);
    }
    mkdirSync(path.join(sdkRoot, "nodejs/node_modules/x"), { recursive: true });
    writeFileSync(path.join(sdkRoot, "nodejs/node_modules/x/index.js"), "");
    mkdirSync(path.join(sdkRoot, "nodejs/bin"), { recursive: true });
    writeFileSync(path.join(sdkRoot, "nodejs/bin/index.js"), "");
    mkdirSync(path.join(sdkRoot, "python/pkg/__pycache__"), { recursive: true });
    writeFileSync(path.join(sdkRoot, "python/pkg/__pycache__/m.pyc"), "");
    const written = writeReleaseAssets(path.join(work, "out2"), plugin, "0.0.1", sdkRoot);
    expect(tarList(written[5])).toEqual(["python/source.txt"]);
    expect(tarList(written[6])).toEqual(["nodejs/source.txt"]);
  });

  it("says which SDK is missing instead of writing a partial release", () => {
    expect(() => writeReleaseAssets(path.join(work, "out3"), plugin, "0.0.1", path.join(work, "nowhere"))).toThrow(
      /nowhere\/go is missing: run `npm run sdk-gen`/,
    );
  });
});
