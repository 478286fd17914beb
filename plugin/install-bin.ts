#!/usr/bin/env node
import { main } from "./install-cli";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`billing-plugin: ${(err as Error).message}\n`);
    process.exitCode = 2;
  },
);
