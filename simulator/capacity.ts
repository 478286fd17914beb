/**
 * The service's per-site concurrency: "4 concurrent requests per site", more
 * are "at risk of being queued". So by default the one past the limit waits
 * for a slot, first come first served, and runs; `overCapacity: "429"` refuses
 * it instead (the field notes' reading). Either way the client sees a request
 * take longer or fail only because of its own parallelism, which `peak` makes
 * measurable.
 */
export type OverCapacity = "queue" | "429";

/** A count and its high-water mark. */
export class Gauge {
  #now = 0;
  #peak = 0;
  get now(): number {
    return this.#now;
  }
  get peak(): number {
    return this.#peak;
  }
  arrive(): void {
    this.#peak = Math.max(this.#peak, ++this.#now);
  }
  leave(): void {
    this.#now--;
  }
  resetPeak(): void {
    this.#peak = this.#now;
  }
}

export class Capacity {
  #max: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  // Requests from arrival to answer, queued or refused ones included.
  readonly #inFlight = new Gauge();

  constructor(max: number) {
    this.#max = Capacity.#checked(max);
  }

  static #checked(max: number): number {
    if (!(Number.isInteger(max) && max > 0)) throw new Error(`maxConcurrent must be a positive integer, got ${max}`);
    return max;
  }

  /** A new cap from now on: a raised one admits who waits at once; a lowered one lets the running finish. */
  resize(max: number): void {
    this.#max = Capacity.#checked(max);
    while (this.#running < this.#max && this.#waiting.length > 0) {
      this.#running++;
      this.#waiting.shift()?.();
    }
  }

  get inFlight(): number {
    return this.#inFlight.now;
  }

  get peak(): number {
    return this.#inFlight.peak;
  }

  /** Starts a new peak from what is in flight now. */
  resetPeak(): void {
    this.#inFlight.resetPeak();
  }

  arrive(): void {
    this.#inFlight.arrive();
  }

  leave(): void {
    this.#inFlight.leave();
  }

  /** A slot now, or false (for "429"). */
  tryAcquire(): boolean {
    if (this.#running >= this.#max || this.#waiting.length > 0) return false;
    this.#running++;
    return true;
  }

  /** A slot when one frees, in arrival order; rejected when `signal` aborts (the simulator closes). */
  acquire(signal: AbortSignal): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    if (signal.aborted) return Promise.reject(new Error("simulator closed"));
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.#waiting.indexOf(grant);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(new Error("simulator closed"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(grant);
    });
  }

  /** Hands the slot straight to the next in line, so no later arrival can overtake it. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running--;
  }
}
