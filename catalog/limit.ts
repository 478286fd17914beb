/**
 * At most `n` tasks running at once, the rest waiting first come first served. The SDK's pool already
 * caps connections per client; this cap is the read's own, so that a caller's client configured for
 * more (or a second client on the same site) still never has the export put a 5th request in flight.
 */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((go) => waiting.push(go));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      // The slot passes straight to the next task, so `running` never dips and lets a newcomer jump the queue.
      if (next) next();
      else running--;
    }
  };
}
