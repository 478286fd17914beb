import type { ReasonCodeInput, ReasonCodeRecord } from "./records-site";
import { SiteError } from "./site-error";
import { hasProblems, type Problems, Refusal } from "./wire-catalog";
import { REASON_CODE_TAKEN, type ReasonCodeBody, type ReasonCodeUpdateBody } from "./wire-site-config";

export const FIRST_REASON_CODE_ID = 1;

export interface ReasonCodeSnapshot {
  reasonCodes: ReasonCodeRecord[];
  next: number;
}

/**
 * Churn reason codes. Codes are unique within the site (the published 422:
 * "Code: This code is already in use."). Lists are by `position`, then id (the
 * published list example is in position order, not id order). A code made
 * without a position goes after the last one; positions given are kept as
 * given, others are not renumbered (not published). A delete is immediate and
 * final ("This code will be immediately removed. This action is not reversable").
 */
export class ReasonCodes {
  readonly #now: () => string;
  readonly #codes = new Map<number, ReasonCodeRecord>();
  #next = FIRST_REASON_CODE_ID;

  constructor(nowIso: () => string) {
    this.#now = nowIso;
  }

  get isEmpty(): boolean {
    return this.#codes.size === 0;
  }

  add(r: ReasonCodeInput): ReasonCodeRecord {
    if (typeof r.code !== "string" || r.code.trim() === "") throw new Error("addReasonCode: code must be a non-empty string");
    if (typeof r.description !== "string" || r.description.trim() === "")
      throw new Error("addReasonCode: description must be a non-empty string");
    if (this.#byCode(r.code)) throw new Error(`addReasonCode: code '${r.code}' exists`);
    if (r.id !== undefined && (this.#codes.has(r.id) || !Number.isSafeInteger(r.id) || r.id <= 0))
      throw new Error(`addReasonCode: id ${r.id} is taken or not a positive integer`);
    const id = r.id ?? this.#next;
    this.#next = Math.max(this.#next, id + 1);
    return structuredClone(this.#insert(id, r.code, r.description, r.position));
  }

  /** POST /reason_codes.json. */
  create(b: ReasonCodeBody): ReasonCodeRecord {
    if (this.#byCode(b.code)) throw new Refusal({ code: [REASON_CODE_TAKEN] });
    return this.#insert(this.#next++, b.code, b.description, b.position);
  }

  /** `{reason_code_id}`: 404 when there is none. */
  get(id: number): ReasonCodeRecord {
    const r = this.#codes.get(id);
    if (!r) throw new SiteError(404, "Reason code not found");
    return r;
  }

  list(): ReasonCodeRecord[] {
    return [...this.#codes.values()].sort((a, b) => a.position - b.position || a.id - b.id);
  }

  /** PUT /reason_codes/{id}.json: what is given changes; a code another has is refused. */
  update(r: ReasonCodeRecord, b: ReasonCodeUpdateBody): ReasonCodeRecord {
    const problems: Problems = {};
    if (b.code !== undefined && b.code !== r.code && this.#byCode(b.code)) problems.code = [REASON_CODE_TAKEN];
    if (hasProblems(problems)) throw new Refusal(problems);
    if (b.code !== undefined) r.code = b.code;
    if (b.description !== undefined) r.description = b.description;
    if (b.position !== undefined) r.position = b.position;
    r.updatedAt = this.#now();
    return r;
  }

  delete(r: ReasonCodeRecord): void {
    this.#codes.delete(r.id);
  }

  snapshot(): ReasonCodeSnapshot {
    return { reasonCodes: [...this.#codes.values()].sort((a, b) => a.id - b.id).map((r) => structuredClone(r)), next: this.#next };
  }

  restore(d: ReasonCodeSnapshot): void {
    if (!this.isEmpty) throw new Error("simulator bookkeeping: restore into used reason codes");
    for (const r of d.reasonCodes) this.#codes.set(r.id, structuredClone(r));
    this.#next = Math.max(d.next, Math.max(0, ...this.#codes.keys()) + 1);
  }

  #insert(id: number, code: string, description: string, position: number | undefined): ReasonCodeRecord {
    const now = this.#now();
    const last = Math.max(0, ...[...this.#codes.values()].map((x) => x.position));
    const record: ReasonCodeRecord = { id, code, description, position: position ?? last + 1, createdAt: now, updatedAt: now };
    this.#codes.set(id, record);
    return record;
  }

  #byCode(code: string): ReasonCodeRecord | undefined {
    for (const r of this.#codes.values()) if (r.code === code) return r;
    return undefined;
  }
}
