/**
 * Where the mock's log lines go: batched into one asynchronous write per turn of the event loop
 * (or per BATCH_CHARS characters), so a burst of requests costs one system call and none of them waits on
 * it. Bounded: when the reader is slower than the requests (a pipe nobody drains), lines past
 * MAX_PENDING_CHARS characters are dropped and counted, and a line saying how many stands where
 * they were dropped; the mock never blocks on its log and its memory never grows with it.
 */
import { write as fsWrite, writeSync } from 'node:fs';

/** Characters gathered into one write at most. */
export const BATCH_CHARS = 64 * 1024;
/** Characters waiting (in the write in flight and gathered) past which lines are dropped. */
export const MAX_PENDING_CHARS = 1024 * 1024;

export interface LogSink {
  /** Queues one line (without its line break). */
  write(line: string): void;
  /** Lines dropped so far because the reader was too slow. */
  readonly dropped: number;
  /**
   * Writes what is queued, waiting at most `timeoutMs` for a write in flight (a reader that never
   * reads is not waited on forever); resolves with whether everything was written.
   */
  close(timeoutMs?: number): Promise<boolean>;
}

/** How soon a write the pipe refused for now (EAGAIN) is tried again. */
const RETRY_MS = 20;

/** Writes some of `bytes` (a pipe may take part of them), calling `done` with how many. */
type Write = (bytes: Buffer, done: (error: NodeJS.ErrnoException | null, written: number) => void) => void;

/** A sink on a file descriptor (2: stderr), written through libuv's thread pool. */
export function fdSink(fd: number): LogSink {
  return createSink((bytes, done) => fsWrite(fd, bytes, 0, bytes.length, null, (error, written) => done(error, written)), (text) => writeSync(fd, text));
}

/** The sink over any asynchronous `write` (tests give one that stalls); `writeNow` writes synchronously at close. */
export function createSink(write: Write, writeNow?: (text: string) => void): LogSink {
  /** Lines, and in their place among them, how many were dropped there (said as one note). */
  let queue: (string | DropRun)[] = [];
  let queuedChars = 0;
  let inFlightChars = 0;
  let inFlight = false;
  let scheduled = false;
  let dropped = 0;
  let broken = false;
  let idle: (() => void) | undefined;

  const render = (entry: string | DropRun): string => (typeof entry === 'string' ? entry : dropNote(entry.lines));
  const take = (): string => {
    let text = '';
    let n = 0;
    while (n < queue.length && (text.length === 0 || text.length + render(queue[n]!).length < BATCH_CHARS)) text += render(queue[n++]!);
    const taken = queue.slice(0, n);
    queue = n === queue.length ? [] : queue.slice(n);
    for (const entry of taken) if (typeof entry === 'string') queuedChars -= entry.length;
    return text;
  };
  const flush = () => {
    scheduled = false;
    if (inFlight || broken) return;
    if (queue.length === 0) return idle?.();
    const text = take();
    let bytes = Buffer.from(text, 'utf8');
    inFlight = true;
    inFlightChars = text.length;
    const attempt = () => write(bytes, (error, written) => {
      // A pipe in non-blocking mode that is full: the rest again shortly, lines queue meanwhile.
      if (error?.code === 'EAGAIN' || (!error && written < bytes.length)) {
        bytes = bytes.subarray(error ? 0 : written);
        return void setTimeout(attempt, error ? RETRY_MS : 0); // kept referenced: close() bounds the wait
      }
      inFlight = false;
      inFlightChars = 0;
      if (error) {
        // The reader went away (EPIPE): nothing more can be written; the mock goes on serving.
        broken = true;
        dropped += queue.filter((entry) => typeof entry === 'string').length;
        queue = [];
        queuedChars = 0;
        return idle?.();
      }
      flush();
    });
    attempt();
  };
  const schedule = () => {
    if (!scheduled && !inFlight) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return {
    write(line) {
      if (broken) return void dropped++;
      const text = `${line}\n`;
      if (queuedChars + inFlightChars + text.length > MAX_PENDING_CHARS) {
        dropped++;
        const last = queue[queue.length - 1];
        if (last !== undefined && typeof last !== 'string') last.lines++;
        else queue.push({ lines: 1 });
        return schedule();
      }
      queue.push(text);
      queuedChars += text.length;
      schedule();
    },
    get dropped() {
      return dropped;
    },
    async close(timeoutMs = 2_000) {
      if (inFlight || scheduled) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          idle = resolve;
          timer = setTimeout(resolve, timeoutMs);
          timer.unref();
          if (!inFlight && !scheduled) resolve();
        });
        clearTimeout(timer);
        idle = undefined;
      }
      if (inFlight) return false;
      const rest = queue.map(render).join('');
      queue = [];
      queuedChars = 0;
      if (!rest || broken) return !broken;
      try {
        if (writeNow) writeNow(rest);
        else write(Buffer.from(rest, 'utf8'), () => {});
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Lines dropped in a row, where they were dropped. */
interface DropRun {
  lines: number;
}

const dropNote = (lines: number): string => `log: ${lines} line(s) dropped: the log's reader was slower than the requests\n`;
