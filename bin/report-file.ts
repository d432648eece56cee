/**
 * Files a command writes where the user names them (`conform --output`, `diff --output`,
 * `self-test --json`): private to the user (mode 0600, an existing file made so too) and never
 * written through a symbolic link, which could point a report at a file someone else chose.
 * Kept free of heavy imports: the commands' modules load it.
 */
import { closeSync, constants, lstatSync, openSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';

export const REPORT_FILE_MODE = 0o600;

const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = constants;

/** A report file refused for what it is, not for an error of the system; the message fits after "cannot write FILE: ". */
export class ReportFileRefused extends Error {
  override readonly name = 'ReportFileRefused';
}

/** Why a link is refused, to follow "cannot write FILE: " or to stand in parentheses. */
export const SYMLINK_REFUSED = 'it is a symbolic link, and a report is never written through one';

/** Why another user's file with more than one name is refused. */
export const HARD_LINK_REFUSED = "it is another user's file with other names (hard links), and a report never takes one over";

/** O_NOFOLLOW fails with ELOOP when the path's last component is a link: said as such. */
const refusal = (error: unknown): unknown => ((error as NodeJS.ErrnoException).code === 'ELOOP' ? new ReportFileRefused(SYMLINK_REFUSED) : error);

/** Why a report file cannot be written, short: the refusal, else the system's code (`EACCES`). */
export const reportFileProblem = (error: unknown): string =>
  error instanceof ReportFileRefused ? error.message : ((error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error)));

/**
 * Writes `text` as the whole of the file at `path`. A regular file is made the writer's own and
 * 0600 before it is truncated, so a file whose owner or mode cannot be changed (another user's,
 * for anyone but root) is refused untouched rather than emptied: that is why the open carries no
 * O_TRUNC. Root takes another user's file over, or that user could read the report. A device
 * (`/dev/null`) keeps its owner and mode.
 */
export async function writeReportFile(path: string, text: string): Promise<void> {
  const handle = await open(path, O_WRONLY | O_CREAT | O_NOFOLLOW, REPORT_FILE_MODE).catch((error: unknown) => {
    throw refusal(error);
  });
  try {
    const stats = await handle.stat();
    if (stats.isFile()) {
      // Owner before mode: chown may clear mode bits (set-user-ID), chmod then sets them all. A
      // file already the writer's keeps its group: under 0600 the group reads nothing. geteuid is
      // absent on Windows, where files have no such owner.
      const uid = process.geteuid?.();
      if (uid !== undefined && stats.uid !== uid) {
        // Another user's file with other names (a hard link planted in a shared directory): taking it over would take theirs.
        if (stats.nlink > 1) throw new ReportFileRefused(HARD_LINK_REFUSED);
        await handle.chown(uid, process.getegid!());
      }
      await handle.chmod(REPORT_FILE_MODE);
      await handle.truncate(0);
    }
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/**
 * Whether `path` can be written as a report, tried for real before a long run (an empty write:
 * access checks pass for root where writes then fail, as in /proc) and changing nothing: an
 * existing file is opened for appending (nothing truncated, its mode left until the report is
 * written), a new one created 0600 and removed. Never follows a link and never waits on a pipe
 * without a reader (O_NONBLOCK). Throws what `reportFileProblem` describes.
 */
export function probeReportFile(path: string): void {
  const existed = lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  let fd: number | undefined;
  try {
    fd = openSync(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | (existed ? O_APPEND : O_CREAT | O_EXCL), REPORT_FILE_MODE);
    writeSync(fd, Buffer.alloc(0));
  } catch (error) {
    throw refusal(error);
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (fd !== undefined && !existed) rmSync(path, { force: true });
  }
}
