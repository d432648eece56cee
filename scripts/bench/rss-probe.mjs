/**
 * Loaded with `--import` into a process the bench measures: at exit, writes the process's peak
 * resident set size (kB, from getrusage) to the file named by HSC_BENCH_RSS_FILE. Only the bench
 * loads it; the product knows nothing of it.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.HSC_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
