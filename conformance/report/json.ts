/**
 * The JSON reporter: the Report exactly, for machines (CI dashboards, `jq`), headed by what it is
 * and what made it: the JSON Schema it is valid under (generated from this module's types by
 * generator/conformance-report-schema.ts, shipped in the package as the diff's is), its format
 * and the tool's name and version.
 */
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

export interface JsonReport extends Report {
  /** The schema as the package exports it (`<package>/conformance-report.schema.json`): Node's resolution finds it. */
  readonly $schema: string;
  readonly format: typeof REPORT_FORMAT;
  readonly tool: Tool;
}

export const jsonReport = (report: Report): JsonReport => ({ $schema: `${PROGRAM}/${REPORT_SCHEMA_FILE}`, format: REPORT_FORMAT, tool: reportingTool(), ...report });

export const renderJson = (report: Report): string => `${JSON.stringify(jsonReport(report), null, 2)}\n`;
