import { kB, npmPack } from "../tests/package/pack";
import type { Row } from "./stats";

/**
 * Figure 10: what `npm install pulumi-subscription-billing` downloads and unpacks, from `npm pack --dry-run --json`
 * of the built tree (`npm run bench` builds first; no lifecycle scripts). A size, not a ratio: nothing to compare
 * it with side by side, and no target (tests/package/pack.test.ts checks what is in it).
 */
export function packSizeFigure(): Row[] {
  const p = npmPack();
  return [
    {
      figure: "10",
      candidate: `npm pack tarball (${p.filename})`,
      reference: "–",
      value: `${kB(p.size)} packed, ${kB(p.unpackedSize)} unpacked, ${p.entryCount} files`,
      spread: "",
      repeats: "1",
      target: "–",
      met: undefined,
    },
  ];
}
