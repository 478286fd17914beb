import type { EndpointChange, EndpointInput, EndpointRecord } from "./records";

/**
 * The site's webhook endpoints, by id. Ids count from 1 per site (the vendor's
 * create example answers id 1), in their own sequence.
 *
 * Two endpoints may share a URL: the contract names no uniqueness rule and
 * publishes no 422 for it, and an endpoint is its URL *and* its events, so the
 * service most plausibly lets a merchant split events over two endpoints at
 * the same receiver. A client that wants one endpoint per URL has to look
 * before it creates.
 */
export class Endpoints {
  readonly #byId = new Map<number, EndpointRecord>();
  #next = 1;

  add(e: EndpointInput): EndpointRecord {
    const id = e.id ?? this.#next;
    if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`endpoint id must be a positive integer, got ${id}`);
    if (this.#byId.has(id)) throw new Error(`endpoint id ${id} exists`);
    const record: EndpointRecord = {
      id,
      url: checkedUrl(e.url, "addEndpoint"),
      events: checkedEvents(e.events, "addEndpoint"),
      status: checkedStatus(e.status ?? "enabled", "addEndpoint"),
    };
    this.#byId.set(id, record);
    this.#next = Math.max(this.#next, id + 1);
    return structuredClone(record);
  }

  /** For the API: the stored endpoint, or undefined. The caller must not keep it past the request. */
  get(id: number): EndpointRecord | undefined {
    return this.#byId.get(id);
  }

  /** The API's PUT and a test's "changed in the web UI": what is given replaces what was held. */
  change(id: number, c: EndpointChange, who = "updateEndpoint"): EndpointRecord {
    const e = this.#byId.get(id);
    if (!e) throw new Error(`${who}: no endpoint ${id}`);
    const url = c.url === undefined ? e.url : checkedUrl(c.url, who);
    const events = c.events === undefined ? e.events : checkedEvents(c.events, who);
    const status = c.status === undefined ? e.status : checkedStatus(c.status, who);
    Object.assign(e, { url, events, status });
    return structuredClone(e);
  }

  remove(id: number): void {
    if (!this.#byId.delete(id)) throw new Error(`removeEndpoint: no endpoint ${id}`);
  }

  /** Every endpoint, oldest id first (the order they were made in), as copies. */
  list(): EndpointRecord[] {
    return [...this.#byId.values()].sort((a, b) => a.id - b.id).map((e) => structuredClone(e));
  }

  /** The next id handed out: kept in a data file, so an id removed in the web UI is never handed out again. */
  get nextId(): number {
    return this.#next;
  }

  /** Fills an empty set from a data file (already checked by its schema). */
  restore(endpoints: readonly EndpointRecord[], nextId: number): void {
    for (const e of endpoints) this.add(e);
    this.#next = Math.max(this.#next, nextId);
  }
}

function checkedUrl(url: unknown, who: string): string {
  if (typeof url !== "string" || url === "") throw new Error(`${who}: url must be a non-empty string, got ${JSON.stringify(url)}`);
  return url;
}

/**
 * Events as the site keeps them, from the API or a seed alike: in the order
 * given, a repeated key once (the contract is silent; a subscription to an
 * event is a yes or no, so the service most plausibly stores a set, and
 * answers in the order it was given).
 */
function checkedEvents(events: unknown, who: string): string[] {
  if (!Array.isArray(events)) throw new Error(`${who}: events must be an array of event keys`);
  const kept: string[] = [];
  for (const e of events) {
    if (typeof e !== "string" || e === "") throw new Error(`${who}: events must be non-empty strings, got ${JSON.stringify(e)}`);
    if (!kept.includes(e)) kept.push(e);
  }
  return kept;
}

function checkedStatus(status: unknown, who: string): string {
  if (typeof status !== "string" || status === "")
    throw new Error(`${who}: status must be a non-empty string, got ${JSON.stringify(status)}`);
  return status;
}
