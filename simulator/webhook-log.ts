import type { BigIdWebhookRecord, WebhookInput, WebhookRecord } from "./records";
import { INT64_MAX, type WebhookStatus } from "./wire";

/** A webhook as kept: its id as exact decimal text (int64 ids do not fit a double). */
export interface StoredWebhook {
  idText: string;
  status: WebhookStatus;
  subscriptionId?: number;
  event: string;
  createdAt: string;
}

/** A webhook as a data file holds it: the id as exact decimal text. */
export type WebhookData = Omit<StoredWebhook, "idText"> & { id: string };

export interface WebhookQuery {
  status?: WebhookStatus;
  sinceDate?: string;
  untilDate?: string;
  subscriptionId?: number;
  order: "newest_first" | "oldest_first";
  page: number;
  perPage: number;
}

/** The site's webhooks and what was asked to be replayed. */
export class WebhookLog {
  /** Safe ids queued for re-delivery, in order; ids past 2^53 only appear in `replayLog`. */
  replayQueue: number[] = [];
  // Every replayed id in order: numbers while safe (8 bytes each for a
  // million-id benchmark that never reads it), text only for the big ones.
  readonly #replayed: (number | string)[] = [];
  readonly #replayedText: string[] = [];

  readonly #nowIso: () => string;
  readonly #byId = new Map<string, StoredWebhook>();
  #next = 5001;

  constructor(nowIso: () => string) {
    this.#nowIso = nowIso;
  }

  add(w: WebhookInput & { id?: number }): WebhookRecord;
  add(w: WebhookInput & { id: string }): BigIdWebhookRecord;
  add(w: WebhookInput): WebhookRecord | BigIdWebhookRecord;
  add(w: WebhookInput): WebhookRecord | BigIdWebhookRecord {
    const idText = this.#claim(w.id);
    if (w.createdAt !== undefined && Number.isNaN(Date.parse(w.createdAt)))
      throw new Error(`addWebhook: createdAt '${w.createdAt}' is not a timestamp`);
    const stored: StoredWebhook = {
      idText,
      status: w.status,
      event: w.event ?? (w.status === "failed" ? "payment_failure" : "payment_success"),
      createdAt: w.createdAt ?? this.#nowIso(),
      ...(w.subscriptionId !== undefined ? { subscriptionId: w.subscriptionId } : {}),
    };
    this.#byId.set(idText, stored);
    const { idText: _, ...rest } = stored;
    // A string in, a string out: the caller chose exactness over arithmetic.
    return typeof w.id === "string" ? { id: idText, ...rest } : { id: Number(idText), ...rest };
  }

  list(q: WebhookQuery): StoredWebhook[] {
    const rows = [...this.#byId.values()].filter(
      (w) =>
        (q.status === undefined || w.status === q.status) &&
        (q.subscriptionId === undefined || w.subscriptionId === q.subscriptionId) &&
        (q.sinceDate === undefined || w.createdAt.slice(0, 10) >= q.sinceDate) &&
        (q.untilDate === undefined || w.createdAt.slice(0, 10) <= q.untilDate),
    );
    const dir = q.order === "oldest_first" ? 1 : -1;
    rows.sort((a, b) => dir * (Date.parse(a.createdAt) - Date.parse(b.createdAt) || compareDecimal(a.idText, b.idText)));
    return rows.slice((q.page - 1) * q.perPage, q.page * q.perPage).map((w) => ({ ...w }));
  }

  /**
   * Queues every id given, known or not: the service answers `{"status":"ok"}`
   * and documents no error for unknown ids (the queue is worked off later), and
   * a million-id benchmark should not need a million seeded webhooks.
   */
  replay(ids: readonly string[]): void {
    for (const text of ids) {
      const n = Number(text);
      const safe = Number.isSafeInteger(n);
      this.#replayed.push(safe ? n : text);
      if (safe) this.replayQueue.push(n);
    }
  }

  /** Every replayed id in order as exact decimal text: the ground truth for "queued twice" or "lost". Made as read. */
  get replayLog(): readonly string[] {
    for (let i = this.#replayedText.length; i < this.#replayed.length; i++) this.#replayedText.push(String(this.#replayed[i]));
    return this.#replayedText;
  }

  /** What a data file keeps of the log: every webhook (ids as text), the replay log and queue, the next id. */
  snapshot(): { webhooks: WebhookData[]; replayLog: string[]; replayQueue: number[]; nextId: number } {
    return {
      webhooks: [...this.#byId.values()].map(({ idText, ...rest }) => ({ id: idText, ...rest })),
      replayLog: [...this.replayLog],
      replayQueue: [...this.replayQueue],
      nextId: this.#next,
    };
  }

  /** Fills an empty log from a data file (already checked by its schema). */
  restore(d: { webhooks: readonly WebhookData[]; replayLog: readonly string[]; replayQueue: readonly number[]; nextId: number }): void {
    for (const w of d.webhooks) this.add(w);
    for (const text of d.replayLog) {
      const n = Number(text);
      this.#replayed.push(Number.isSafeInteger(n) ? n : text);
    }
    this.replayQueue = [...d.replayQueue];
    this.#next = Math.max(this.#next, d.nextId);
  }

  #claim(given: number | string | undefined): string {
    let text: string;
    if (given === undefined) text = String(this.#next);
    else if (typeof given === "number") {
      if (!Number.isSafeInteger(given) || given <= 0) throw new Error(`webhook id must be a positive integer, got ${given}`);
      text = String(given);
    } else {
      if (!/^[1-9]\d*$/.test(given) || BigInt(given) > INT64_MAX)
        throw new Error(`webhook id must be a positive int64 in decimal, got '${given}'`);
      text = given;
    }
    if (this.#byId.has(text)) throw new Error(`webhook id ${text} exists`);
    const n = Number(text);
    // Only safe ids move the counter: generated ids stay exact numbers.
    if (Number.isSafeInteger(n)) this.#next = Math.max(this.#next, n + 1);
    return text;
  }
}

/** Order of two positive decimal integers without leaving text: longer is larger, then digit by digit. */
function compareDecimal(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
