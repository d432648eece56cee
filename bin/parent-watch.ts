/**
 * A long-running command (`mock`, `proxy`) stops when the process that started it goes away.
 * A wrapper that dies of a signal does not always pass it on (`npx` runs the command under
 * `sh -c`, which takes npm's SIGTERM and leaves its child running under init): the command would
 * hold its port and never write its report. Its parent's pid changes then; this notices.
 */
import { setInterval as every } from 'node:timers';

/** How often the parent is looked at: a stop shortly after the wrapper's. */
const POLL_MS = 250;

export interface ParentWatch {
  /** Resolves when the parent has gone (never, if the process started as an orphan). */
  readonly gone: Promise<void>;
  stop(): void;
}

/**
 * The parent as the process started under it, read when this module loads (with the command's
 * module, long before it listens): read later, a wrapper killed the moment the command says it
 * listens would already be gone, and the orphan would take init for the parent it started under.
 */
const STARTED_UNDER = process.ppid;

export function watchParent(): ParentWatch {
  const parent = STARTED_UNDER;
  let timer: NodeJS.Timeout | undefined;
  const gone = new Promise<void>((resolve) => {
    // Started under init already (a container's entry point, a daemon): nothing to watch.
    if (parent <= 1) return;
    const check = () => {
      if (process.ppid === parent) return false;
      clearInterval(timer);
      resolve();
      return true;
    };
    if (check()) return;
    timer = every(check, POLL_MS);
    timer.unref();
  });
  return { gone, stop: () => clearInterval(timer) };
}
