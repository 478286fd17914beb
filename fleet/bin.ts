#!/usr/bin/env node
import { pinSerializerTypeScript } from "../provider/typescript-guard";
import { main } from "./cli";
import { outputMayClose } from "./output";

pinSerializerTypeScript();
outputMayClose(process.stdout, process.stderr);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`billing-fleet: ${(err as Error).message}\n`);
    process.exitCode = 1;
  },
);
