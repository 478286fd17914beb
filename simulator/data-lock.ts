import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { DataFileError } from "./data-file";

/**
 * `FILE.lock` beside a data file, holding the pid (and host) of the simulator
 * that uses it. Two simulators on one file would each write their own site
 * over the other's on every change, so the second is refused at its start.
 */
export interface DataLock {
  readonly path: string;
  /** Removes the lock, unless another simulator has since taken it over (then it is theirs). */
  release(): void;
}

interface Holder {
  pid: number;
  host: string;
}

export function lockDataFile(file: string): DataLock {
  const lock = `${file}.lock`;
  const mine: Holder = { pid: process.pid, host: hostname() };
  const text = `${JSON.stringify(mine)}\n`;
  // Twice at most: once as found, once after taking over a lock its simulator left behind when it died.
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(lock, "wx");
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "EEXIST")
        throw new DataFileError(file, `cannot be written (${code ?? String(err)}): its lock ${lock} cannot be created.`);
      const holder = holderOf(lock);
      if (attempt === 0 && holder !== undefined && holder.host === mine.host && !alive(holder.pid)) {
        // Its simulator was killed (SIGKILL, a crash) before it could remove the lock: nothing uses the file.
        rmSync(lock, { force: true });
        continue;
      }
      throw new DataFileError(file, inUse(lock, holder));
    }
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    return {
      path: lock,
      release: () => {
        const holder = holderOf(lock);
        if (holder?.pid === mine.pid && holder.host === mine.host) rmSync(lock, { force: true });
      },
    };
  }
}

function inUse(lock: string, holder: Holder | undefined): string {
  const stop = "Two simulators on one file would overwrite each other's changes: stop the other one, or give this one another --data file.";
  if (holder === undefined)
    return `is locked by ${lock}, which does not say which process holds it. ${stop} If no simulator uses the file, remove ${lock}.`;
  const where = holder.host === hostname() ? `process ${holder.pid}` : `process ${holder.pid} on host ${holder.host}`;
  return `is in use by another billing-simulator (${where}, lock ${lock}). ${stop} If that process is not a simulator, remove ${lock}.`;
}

/** The lock's holder; undefined when the file is gone, unreadable or not a lock this simulator wrote. */
function holderOf(lock: string): Holder | undefined {
  try {
    const h = JSON.parse(readFileSync(lock, "utf8")) as Partial<Holder>;
    return Number.isSafeInteger(h.pid) && typeof h.host === "string" ? { pid: h.pid as number, host: h.host } : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
