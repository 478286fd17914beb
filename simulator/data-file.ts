import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { DATA_FORMAT, DATA_VERSION, dataFile, type SiteData, siteData } from "./data-shape";
import { dataFileV1, upgradeV1, V1 } from "./data-shape-v1";
import { dataFileV2, upgradeV2, V2 } from "./data-shape-v2";
import { dataFileV3, upgradeV3, V3 } from "./data-shape-v3";

/**
 * A data file that cannot be read, parsed or written. Its message names the
 * file and what is wrong; the file itself is left as it was, so that nothing a
 * user kept is ever replaced by an empty site behind their back.
 */
export class DataFileError extends Error {
  override readonly name = "DataFileError";
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`data file ${file} ${problem}`);
  }
}

const KEEP = "It was left as it is: fix it, or move it away to start a new one (from --seed, if given).";

/** The site a data file holds; undefined when there is no file yet (the caller starts from its seed and writes one). */
export function readDataFile(file: string): SiteData | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DataFileError(file, `cannot be read (${reason(err)}).`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new DataFileError(file, `is not valid JSON (${reason(err)}). ${KEEP}`);
  }
  const head = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  if (head.format !== DATA_FORMAT)
    throw new DataFileError(file, `is not a billing-simulator data file (it has no "format": "${DATA_FORMAT}"). ${KEEP}`);
  // Checked before the shape: a newer file's shape says nothing useful to an older simulator.
  if (head.version === V1 || head.version === V2 || head.version === V3) return upgraded(file, raw, head.version);
  if (head.version !== DATA_VERSION)
    throw new DataFileError(
      file,
      `has format version ${JSON.stringify(head.version) ?? "(none)"}; this billing-simulator reads versions ${V1} to ${DATA_VERSION}. ${KEEP}`,
    );
  const parsed = dataFile.safeParse(raw);
  if (!parsed.success) throw new DataFileError(file, `does not hold a simulator's site: ${issues(parsed.error)}. ${KEEP}`);
  return parsed.data.site;
}

/**
 * A version 1, 2 or 3 file: read with its own shape, upgraded step by step (1
 * to 2 to 3 to 4), and checked as a current site. The file itself is rewritten (as the
 * current version) only when the site changes.
 */
function upgraded(file: string, raw: unknown, version: typeof V1 | typeof V2 | typeof V3): SiteData {
  let site: SiteData;
  if (version === V1) {
    const old = dataFileV1.safeParse(raw);
    if (!old.success) throw new DataFileError(file, `does not hold a simulator's site: ${issues(old.error)}. ${KEEP}`);
    site = upgradeV3(upgradeV2(upgradeV1(old.data.site)));
  } else if (version === V2) {
    const old = dataFileV2.safeParse(raw);
    if (!old.success) throw new DataFileError(file, `does not hold a simulator's site: ${issues(old.error)}. ${KEEP}`);
    site = upgradeV3(upgradeV2(old.data.site));
  } else {
    const old = dataFileV3.safeParse(raw);
    if (!old.success) throw new DataFileError(file, `does not hold a simulator's site: ${issues(old.error)}. ${KEEP}`);
    site = upgradeV3(old.data.site);
  }
  const current = siteData.safeParse(site);
  if (!current.success) throw new DataFileError(file, `does not hold a simulator's site: ${issues(current.error, "site")}. ${KEEP}`);
  return current.data;
}

/** The file's text for a site: what `writeDataFile` writes, and what tells whether anything changed since. */
export function dataFileText(site: SiteData): string {
  return `${JSON.stringify({ format: DATA_FORMAT, version: DATA_VERSION, site }, null, 1)}\n`;
}

/**
 * Replaces the file in one step: the text goes to a temporary file in the same
 * folder (a rename is atomic only within one file system), is flushed to disk,
 * then renamed over the file. A reader, or a simulator started after a crash,
 * sees the old file or the new one, never half of one. Synchronous, so that
 * writes land in the order the changes were made and before the answer leaves.
 */
export function writeDataFile(file: string, text: string): void {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx");
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw new DataFileError(file, `cannot be written (${reason(err)}); the change is held in memory only.`);
  }
  syncFolder(dir);
}

/** The rename itself reaches the disk with the folder's entry; some platforms cannot open a folder to flush it. */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Windows and some file systems refuse; the file's own flush above still holds.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ?? (err instanceof Error ? err.message : String(err));
}

/** The first few problems as "where: what", the file's own key names. */
function issues(error: z.ZodError, under?: string): string {
  const listed = error.issues.slice(0, 5).map((i) => `${where(under === undefined ? i.path : [under, ...i.path])}: ${i.message}`);
  const more = error.issues.length - listed.length;
  return listed.join("; ") + (more > 0 ? `; and ${more} more` : "");
}

function where(p: readonly PropertyKey[]): string {
  let out = "";
  for (const k of p) out += typeof k === "number" ? `[${k}]` : `${out === "" ? "" : "."}${String(k)}`;
  return out === "" ? "(the file)" : out;
}
