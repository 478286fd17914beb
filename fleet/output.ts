/**
 * The runner's output when its reader is gone: the parent that read it died (its pipe closed: EPIPE),
 * a terminal hung up (EIO), `| head` had enough. Without a listener, the stream's error is thrown from
 * the event loop: the runner dies at its next progress line, with stacks mid-operation, and their CLIs
 * are never asked to stop. With one, output is dropped from then on (a destroyed stream refuses writes
 * at once, so nothing piles up in memory), the run goes on, a signal still stops it gracefully, and
 * what happened is in the state folder (the report, each site's log) as always.
 */
export function outputMayClose(...streams: NodeJS.WriteStream[]): void {
  for (const stream of streams) {
    stream.on("error", () => {
      // Nobody to tell: the same stream is where it would be said.
      stream.destroy();
    });
  }
}
