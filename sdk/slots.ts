/**
 * The client's requests in flight, at most `size` at once, and the queue of
 * those waiting for one. The transport's own rather than undici's pool queue:
 * a request queued in undici cannot be taken back before it is written, and
 * one waiting here can give up when its time is up without ever reaching a
 * connection (nothing sent, nothing to abort, no socket lost).
 */
export class Slots {
  #inUse = 0;
  readonly #waiting: Waiter[] = [];

  constructor(readonly size: number) {}

  /** True once a slot is held; false when none came free within `timeoutMs` (the request then gives up unsent). */
  acquire(timeoutMs: number): boolean | Promise<boolean> {
    if (this.#inUse < this.size) {
      this.#inUse++;
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = { resolve, timer: undefined };
      waiter.timer = setTimeout(() => {
        const i = this.#waiting.indexOf(waiter);
        if (i >= 0) this.#waiting.splice(i, 1);
        resolve(false);
      }, timeoutMs);
      this.#waiting.push(waiter);
    });
  }

  /** Hands the slot to the longest waiting request, or frees it. */
  release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) {
      this.#inUse--;
      return;
    }
    clearTimeout(next.timer);
    next.resolve(true);
  }
}

interface Waiter {
  resolve: (held: boolean) => void;
  timer: NodeJS.Timeout | undefined;
}
