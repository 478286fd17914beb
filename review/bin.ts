#!/usr/bin/env node
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { truncate } from "./markdown";
import { policyPacksNotRun } from "./policy-packs";
import { ReviewInputError, readInput } from "./read";
import { reviewSummary } from "./summary";

const HELP = `billing-review: a Markdown summary of a pulumi preview, for a pull request

Usage:
  pulumi preview --json | billing-review [options]
  billing-review [options] FILE

Input (FILE, or stdin when FILE is absent or "-"), one of:
  - the JSON that \`pulumi preview --json\` prints;
  - the same preview as engine events, one JSON object a line
    (PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi preview --json): the only form
    that carries policy pack results (the document leaves them out);
  - a fleet report (billing-fleet preview --json), a section per site.

Options:
  -o, --output FILE     also write the summary to FILE (e.g. for gh pr comment --body-file)
      --max-chars N     cut the summary at a line boundary to at most N characters, saying so
                        (GitHub refuses a comment over 65536)
  -h, --help            this text

The summary goes to stdout. Exit status: 0 when a summary was written (a failed preview
is summarized, not an error); 3 when it was written but a policy pack the preview was
given did not run (the summary says what the pack said: a pack needs @pulumi/policy
installed beside the package); 2 for bad usage; 1 when the input cannot be read.
`;

/** Reads all of stdin; a terminal on stdin means nothing was piped, which is a usage error, not a wait. */
async function stdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError("no input: pipe `pulumi preview --json` into billing-review, or name a file");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  let values: { output?: string; "max-chars"?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        output: { type: "string", short: "o" },
        "max-chars": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`one input at a time, got ${positionals.length}: ${positionals.join(" ")}`);
  let maxChars: number | undefined;
  if (values["max-chars"] !== undefined) {
    maxChars = Number(values["max-chars"]);
    if (!Number.isInteger(maxChars) || maxChars < 200)
      throw new UsageError(`--max-chars takes a whole number of at least 200, got ${values["max-chars"]}`);
  }
  const file = positionals[0];
  const fromStdin = file === undefined || file === "-";
  let text: string;
  try {
    text = fromStdin ? await stdin() : await readFile(file, "utf8");
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new ReviewInputError(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const input = readInput(text, fromStdin ? "stdin" : file);
  const summary = reviewSummary(input);
  const out = maxChars === undefined ? summary : truncate(summary, maxChars);
  if (values.output) {
    await writeFile(values.output, out).catch((err: Error) => {
      throw new ReviewInputError(`cannot write --output ${values.output}: ${err.message}`);
    });
  }
  process.stdout.write(out);
  // Written all the same (the comment says why), but a CI step must not pass a change that no policy judged.
  return policyPacksNotRun(input).length ? 3 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`billing-review: ${err.message}\n(see billing-review --help)\n`);
      process.exitCode = 2;
    } else if (err instanceof ReviewInputError) {
      process.stderr.write(`billing-review: ${err.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`billing-review: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    }
  },
);
