/**
 * Who spends a fleet's CPU: every process the CLI starts is run through a shim that appends, when it
 * ends, its kind and the CPU of its whole subtree (bash `times`: the children it reaped) to a log; Node
 * processes also log their own CPU, from a preload, so a plugin's launcher script and the host under it
 * are told apart. The shims are found first on PATH, which the CLI searches before its own folder.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** One ended process: its kind, what it ran (a CLI's first two words), and CPU milliseconds. */
export interface ProcessCpu {
  readonly kind: "cli" | "language" | "provider" | "node";
  readonly what: string;
  readonly cpuMs: number;
}

/** `times`' second line: user and system CPU of the reaped children, e.g. "0m1.234s 0m0.210s". */
function parseTimes(line: string): number {
  return line
    .trim()
    .split(/\s+/)
    .map((t) => /^(\d+)m([\d.]+)s$/.exec(t))
    .reduce((ms, m) => ms + (m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : 0), 0);
}

// A plugin is stopped with SIGINT to its process group: the trap (a handler, not an ignore, so the real process keeps
// the default) lets the shim outlive its child and log it.
// `times` runs in this shell (a command substitution would be a subshell, with no children of its own).
// What a CLI ran: its command and subcommand (`stack init`, `config set-all`), or the command alone (`up`).
const shim = (kind: ProcessCpu["kind"], real: string, log: string) => `#!/bin/bash
trap 'true' INT TERM
"${real}" "$@"
rc=$?
times > "${log}.$$"
what="$1"
case "$2" in -*|"") ;; *) what="$1 $2" ;; esac
printf '%s|%s|%s\\n' "${kind}" "$what" "$(tail -n 1 "${log}.$$")" >> "${log}"
rm -f "${log}.$$"
exit $rc
`;

// Node's own CPU at exit, or at the SIGINT/SIGTERM that stops a plugin (then exits as the default would).
const PRELOAD = (log: string) => `"use strict";
const fs = require("node:fs");
const role = () => {
  const a = process.argv.slice(1).join(" ");
  if (/dynamic-provider/.test(a)) return "dynamic-provider host";
  if (/plugin\\/bin\\.js/.test(a)) return "plugin host";
  if (/cmd\\/run/.test(a)) return "program";
  if (process.argv.length <= 1 || /^-e|\\[eval\\]/.test(a) || process.execArgv.includes("-e")) return "node -e";
  return a.slice(0, 60);
};
let logged = false;
const record = () => {
  if (logged) return;
  logged = true;
  const u = process.cpuUsage();
  fs.appendFileSync(${JSON.stringify(log)}, "node|" + role() + "|" + ((u.user + u.system) / 1000).toFixed(1) + "\\n");
};
process.on("exit", record);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => { record(); process.exit(sig === "SIGINT" ? 130 : 143); });
`;

export interface Shims {
  /** Prepend to PATH. */
  readonly dir: string;
  /** NODE_OPTIONS for the CLI's children. */
  readonly nodeOptions: string;
  /** The processes that ended since the last take, and forgets them. */
  take(): ProcessCpu[];
}

/**
 * Shims of the CLI (`binDir`'s), its nodejs language host and dynamic-provider plugin. The billing
 * plugin needs none: billing-fleet names its launcher in the project file, and the Node preload sees it.
 */
export function makeShims(root: string, binDir: string): Shims {
  const dir = path.join(root, "shims");
  const log = path.join(root, "processes.log");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "pulumi"), shim("cli", path.join(binDir, "pulumi"), log), { mode: 0o755 });
  writeFileSync(path.join(dir, "pulumi-language-nodejs"), shim("language", path.join(binDir, "pulumi-language-nodejs"), log), {
    mode: 0o755,
  });
  writeFileSync(
    path.join(dir, "pulumi-resource-pulumi-nodejs"),
    shim("provider", path.join(binDir, "pulumi-resource-pulumi-nodejs"), log),
    { mode: 0o755 },
  );
  const preload = path.join(dir, "node-cpu.cjs");
  writeFileSync(preload, PRELOAD(log));
  writeFileSync(log, "");
  return {
    dir,
    nodeOptions: `--require ${preload}`,
    take() {
      const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
      writeFileSync(log, "");
      return lines.map((l) => {
        const [kind, what, cpu] = l.split("|");
        return { kind: kind as ProcessCpu["kind"], what: what.trim(), cpuMs: kind === "node" ? Number(cpu) : parseTimes(cpu) };
      });
    },
  };
}

/**
 * CPU of one PBKDF2-SHA256 of 1,000,000 rounds in Go, as the CLI's passphrase secrets manager derives
 * its key (once per CLI process: it caches the manager). Built once into `root`.
 */
export function keyDerivationMs(root: string): number {
  const dir = path.join(root, "pbkdf2");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "go.mod"), "module pbkdf2bench\n\ngo 1.24\n");
  writeFileSync(
    path.join(dir, "main.go"),
    `package main

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"fmt"
	"syscall"
)

// The parameters of sdk/go/common/resource/config/crypt.go (NewSymmetricCrypterFromPassphrase).
func main() {
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	const n = 5
	for i := 0; i < n; i++ {
		if _, err := pbkdf2.Key(sha256.New, "correct horse battery staple", []byte("01234567"), 1000000, 32); err != nil {
			panic(err)
		}
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	ms := func(r syscall.Rusage) float64 {
		return float64(r.Utime.Nano()+r.Stime.Nano()) / 1e6
	}
	fmt.Printf("%.1f\\n", (ms(after)-ms(before))/n)
}
`,
  );
  const exe = path.join(dir, "pbkdf2");
  const build = spawnSync("go", ["build", "-o", exe, "."], { cwd: dir, encoding: "utf8", env: { ...process.env, GOFLAGS: "-mod=mod" } });
  if (build.status !== 0) throw new Error(`go build of the PBKDF2 measurement failed: ${build.stderr}`);
  return Number(spawnSync(exe, { encoding: "utf8" }).stdout.trim());
}
