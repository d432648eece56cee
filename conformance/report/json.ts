/**
 * The JSON reporter: the Report exactly, for machines (CI dashboards, `jq`), headed by what it is
 * and what made it: the JSON Schema it is valid under (generated from this module's types by
 * generator/conformance-report-schema.ts, shipped in the package as the diff's is), its format
 * and the tool's name and version.
 */
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageVersion, PROGRAM } from '../../bin/package-info.ts';
import type { Report } from '../types.ts';

/** Raised when a field is removed or changes meaning, so a consumer can tell which reading applies. */
export const REPORT_FORMAT = 'hosted-site-contract/conformance-report@1';

/** The schema's file in generated/, and its subpath in the package's `exports`. */
export const REPORT_SCHEMA_FILE = 'conformance-report.schema.json';

/** What made a report: the package, and the version its package.json states. */
export interface Tool {
  readonly name: string;
  readonly version: string;
}

export const reportingTool = (): Tool => ({ name: PROGRAM, version: packageVersion() });

/**
 * The schema file beside this module's generated/ (the repository's, or the installed package's
 * dist/generated/: the same relative path from both).
 */
export const reportSchemaPath = (): string => fileURLToPath(new URL(`../../generated/${REPORT_SCHEMA_FILE}`, import.meta.url));

/**
 * The schema as a reference that resolves from where the report is read: relative to the
 * report file's folder (stdout: the working folder), as editors resolve a relative `$schema`.
 */
export const schemaReference = (fromFolder: string): string => relative(fromFolder, reportSchemaPath()).split(sep).join('/');

export interface JsonReport extends Report {
  /** The shipped schema, relative to the report's folder (see schemaReference). */
  readonly $schema: string;
  readonly format: typeof REPORT_FORMAT;
  readonly tool: Tool;
}

/** `fromFolder`: where the report is written (its file's folder; stdout: the working folder). */
export const jsonReport = (report: Report, fromFolder = process.cwd()): JsonReport => ({
  $schema: schemaReference(fromFolder),
  format: REPORT_FORMAT,
  tool: reportingTool(),
  ...report,
});

export const renderJson = (report: Report, fromFolder?: string): string => `${JSON.stringify(jsonReport(report, fromFolder), null, 2)}\n`;
