import { Writable } from "node:stream";
import { main } from "../../fleet/cli";

/** billing-fleet's main() with its stdout and stderr captured (`isTTY` as the CLI would see its terminal). */
export async function runCli(args: string[], isTTY = false): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const sink = (f: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, cb) {
        f(String(chunk));
        cb();
      },
    });
  const code = await main(args, { stdout: sink((s) => (out += s)), stderr: sink((s) => (err += s)), isTTY });
  return { code, out, err };
}
