/**
 * Runs `hosted-site-contract conform` against a target as a user would, in its own process, with
 * bounds: a small heap, a deadline after which the whole process group is killed, and caps on
 * what is kept of its output. Every report goes to a temporary directory that is read back and
 * removed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(REPO_ROOT, 'bin', 'hosted-site-contract.js');

/** Kept of stdout and of stderr each; more is itself a finding (`overflow`). */
export const STREAM_CAP_BYTES = 8 * 1024 * 1024;
/** Kept of each report file. */
export const FILE_CAP_BYTES = 32 * 1024 * 1024;
/** After the process exits, how long its pipes may stay open (a grandchild holding them) before they are cut. */
const DRAIN_GRACE_MS = 2_000;

export interface CliInput {
  /** Base URL ending in /v2. */
  readonly url: string;
  /** Passed as HSC_API_KEY, never on the command line. */
  readonly apiKey: string;
  readonly siteId: string;
  readonly extraArgs?: readonly string[];
  /** The command's entry (default: the repository's launcher, which runs the sources through tsx). */
  readonly launcher?: string;
  /** `--timeout-ms` of the run (default 2000: rows about time end fast). */
  readonly requestTimeoutMs?: number;
  /** The child is killed (SIGKILL, whole process group) if it runs longer. */
  readonly timeoutMs: number;
}

export interface CliRun {
  /** Exit code; null when killed by a signal. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Killed at `timeoutMs`. */
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  /** Every file written into the report directory, by path relative to it, as UTF-8 text. */
  readonly files: Readonly<Record<string, string>>;
  /** Every byte kept, for scans that must not depend on a decoding: stdout, stderr, `file:<name>`. */
  readonly outputs: readonly { readonly name: string; readonly bytes: Buffer }[];
  /** Streams and files that passed their cap (only the first bytes were kept). */
  readonly overflow: readonly string[];
}

interface Captured {
  readonly bytes: () => Buffer;
  readonly overflowed: () => boolean;
}

/** Keeps the first `cap` bytes of a stream and drains the rest, so the child never blocks on a full pipe. */
function capture(stream: Readable, cap: number): Captured {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflowed = false;
  stream.on('data', (chunk: Buffer) => {
    const room = cap - size;
    if (chunk.length > room) overflowed = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    chunks.push(kept);
    size += kept.length;
  });
  stream.on('error', () => undefined);
  return { bytes: () => Buffer.concat(chunks, size), overflowed: () => overflowed };
}

/** SIGKILL to the child's process group (it leads one: `detached`), so helpers it started die too. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is gone already.
  }
}

async function readCapped(path: string, cap: number): Promise<{ bytes: Buffer; cut: boolean }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, cap);
    const bytes = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(bytes, read, length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { bytes: bytes.subarray(0, read), cut: size > cap };
  } finally {
    await handle.close();
  }
}

export async function runConformCli(input: CliInput): Promise<CliRun> {
  const dir = await mkdtemp(join(tmpdir(), 'hsc-hostile-'));
  try {
    const args = [
      '--max-old-space-size=256',
      input.launcher ?? CLI,
      'conform',
      '--base-url', input.url,
      '--site-id', input.siteId,
      '--reporter', 'console',
      '--reporter', 'json',
      '--reporter', 'junit',
      '--output', join(dir, 'report.json'),
      '--timeout-ms', String(input.requestTimeoutMs ?? 2000),
      '--max-wait-s', '2',
      // The full run: every probe and scenario (the targets are throwaway mocks).
      '--allow-destructive',
      ...(input.extraArgs ?? []),
    ];
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HSC_API_KEY: input.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout = capture(child.stdout, STREAM_CAP_BYTES);
    const stderr = capture(child.stderr, STREAM_CAP_BYTES);
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, input.timeoutMs);
    let grace: NodeJS.Timeout | undefined;
    const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', () => {
        // Pipes held open by a leftover of the group must not hold up the result.
        grace = setTimeout(() => {
          killGroup(child);
          child.stdout.destroy();
          child.stderr.destroy();
        }, DRAIN_GRACE_MS);
      });
      child.once('close', (code, signal) => resolve({ code, signal }));
    }).finally(() => {
      clearTimeout(deadline);
      clearTimeout(grace);
    });
    const wallMs = Math.round(performance.now() - started);
    killGroup(child); // nothing of the run outlives it

    const overflow: string[] = [];
    if (stdout.overflowed()) overflow.push('stdout');
    if (stderr.overflowed()) overflow.push('stderr');
    const outputs = [
      { name: 'stdout', bytes: stdout.bytes() },
      { name: 'stderr', bytes: stderr.bytes() },
    ];
    const files: Record<string, string> = {};
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const name = relative(dir, join(entry.parentPath, entry.name));
      const { bytes, cut } = await readCapped(join(dir, name), FILE_CAP_BYTES);
      if (cut) overflow.push(`file:${name}`);
      files[name] = bytes.toString('utf8');
      outputs.push({ name: `file:${name}`, bytes });
    }
    return {
      code,
      signal,
      timedOut,
      stdout: outputs[0]!.bytes.toString('utf8'),
      stderr: outputs[1]!.bytes.toString('utf8'),
      wallMs,
      files,
      outputs,
      overflow,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
