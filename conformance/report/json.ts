/** The JSON reporter: the Report exactly, for machines (CI dashboards, `jq`). */
import type { Report } from '../types.ts';

export const renderJson = (report: Report): string => `${JSON.stringify(report, null, 2)}\n`;
