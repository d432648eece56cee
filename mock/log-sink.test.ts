/**
 * The mock's log sink (log-sink.ts) against writers that misbehave the ways a reader can: slow,
 * stalled, taking part of a write, refusing for now (EAGAIN), gone (EPIPE). Lines arrive whole and
 * in order, a burst is one write, memory stays under the cap, and what was dropped is counted and
 * said in the log itself.
 */
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { createSink, MAX_PENDING_CHARS } from './log-sink.ts';

type Done = (error: NodeJS.ErrnoException | null, written: number) => void;

/** A writer that records what it was given and completes each write when told. */
function controlledWriter() {
  const written: string[] = [];
  const pending: { bytes: Buffer; done: Done }[] = [];
  return {
    written,
    pending,
    write: (bytes: Buffer, done: Done) => void pending.push({ bytes, done }),
    /** Completes the oldest write, taking `take` bytes of it (all by default), or failing it with `code`. */
    complete(take?: number, code?: string) {
      const next = pending.shift()!;
      if (code) return next.done(Object.assign(new Error(code), { code }), 0);
      const n = take ?? next.bytes.length;
      written.push(next.bytes.subarray(0, n).toString('utf8'));
      next.done(null, n);
    },
  };
}

const text = (w: { written: string[] }) => w.written.join('');

describe('the log sink', () => {
  it('writes a burst of lines as one write, whole and in order', async () => {
    const w = controlledWriter();
    const sink = createSink(w.write);
    for (let i = 0; i < 100; i++) sink.write(`line ${i}`);
    expect(w.pending).toHaveLength(0); // nothing before the turn of the loop ends
    await tick();
    expect(w.pending).toHaveLength(1);
    w.complete();
    expect(text(w)).toBe(Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join(''));
  });

  it('gathers what comes while a write is in flight into the next one', async () => {
    const w = controlledWriter();
    const sink = createSink(w.write);
    sink.write('first');
    await tick();
    for (let i = 0; i < 10; i++) sink.write(`later ${i}`);
    await tick();
    expect(w.pending).toHaveLength(1); // still the first: one write at a time
    w.complete();
    expect(w.pending).toHaveLength(1);
    w.complete();
    expect(text(w)).toBe(`first\n${Array.from({ length: 10 }, (_, i) => `later ${i}\n`).join('')}`);
  });

  it('drops and counts what passes the cap while the reader stalls, and says so where the lines were dropped', async () => {
    const w = controlledWriter();
    const sink = createSink(w.write);
    const line = 'x'.repeat(1000);
    sink.write(line);
    await tick(); // in flight, and never completed for now
    const sent = 3 * Math.ceil(MAX_PENDING_CHARS / line.length);
    for (let i = 0; i < sent; i++) sink.write(line);
    expect(sink.dropped).toBeGreaterThan(sent / 2);
    w.complete();
    while (w.pending.length) w.complete();
    const out = text(w);
    expect(out.length).toBeLessThanOrEqual(MAX_PENDING_CHARS + 2 * line.length + 200);
    // Every line kept, then the one note for the run of lines dropped after them.
    const note = `log: ${sink.dropped} line(s) dropped: the log's reader was slower than the requests`;
    expect(out.split('\n').filter((l) => l === line)).toHaveLength(sent + 1 - sink.dropped);
    expect(out.endsWith(`${line}\n${note}\n`)).toBe(true);
  });

  it('a note stands between the lines kept before and after a run of drops', async () => {
    const w = controlledWriter();
    const sink = createSink(w.write);
    const big = 'b'.repeat(MAX_PENDING_CHARS - 10);
    sink.write('first');
    await tick(); // 'first' in flight
    sink.write(big); // fills the cap
    sink.write('dropped one');
    sink.write('dropped two');
    w.complete(); // 'first' written; the big line goes next
    w.complete();
    sink.write('after');
    await tick();
    while (w.pending.length) w.complete();
    expect(text(w)).toBe(`first\n${big}\nlog: 2 line(s) dropped: the log's reader was slower than the requests\nafter\n`);
  });

  it('writes the rest of a write the reader took only part of, and tries again after EAGAIN', async () => {
    const w = controlledWriter();
    const sink = createSink(w.write);
    sink.write('0123456789');
    sink.write('abcdefghij');
    await tick();
    w.complete(4);
    expect(w.pending).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(w.pending).toHaveLength(1);
    w.complete(undefined, 'EAGAIN');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(w.pending).toHaveLength(1);
    w.complete();
    expect(text(w)).toBe('0123456789\nabcdefghij\n');
  });

  it('stops writing, without a throw, once the reader is gone (EPIPE)', async () => {
    const w = controlledWriter();
    const sink = createSink(w.write);
    sink.write('one');
    await tick();
    sink.write('two');
    w.complete(undefined, 'EPIPE');
    sink.write('three');
    await tick();
    expect(w.pending).toHaveLength(0);
    expect(sink.dropped).toBe(2);
    expect(await sink.close(50)).toBe(false);
  });

  it('close writes what is queued at once, and gives up on a write that never ends', async () => {
    const w = controlledWriter();
    const now: string[] = [];
    const sink = createSink(w.write, (t) => now.push(t));
    sink.write('queued');
    await tick();
    const closing = sink.close(30);
    w.complete();
    expect(await closing).toBe(true);
    expect(text(w) + now.join('')).toBe('queued\n');

    // Given up at its 30 ms on the virtual clock: settled once 30 ms have passed there, not before.
    vi.useFakeTimers();
    try {
      const stalled = controlledWriter();
      const stuck = createSink(stalled.write);
      stuck.write('never taken');
      await vi.advanceTimersByTimeAsync(0);
      let settled: boolean | undefined;
      void stuck.close(30).then((ok) => (settled = ok));
      await vi.advanceTimersByTimeAsync(29);
      expect(settled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
