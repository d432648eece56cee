/** The suite a run applies: every check, every probe source, every scenario source. */
import { checks } from './checks/index.ts';
import { probeSources, scenarioSources } from './probes/index.ts';
import type { Suite } from './runner.ts';

export const defaultSuite: Suite = { checks, probeSources, scenarioSources };
