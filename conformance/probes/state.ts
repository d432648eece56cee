/**
 * The STATE-* rules: model-based properties over several exchanges (fast-check's command
 * pattern), one module each under conformance/state/. They change the target, so they run
 * against the embedded mock by default and elsewhere only with --allow-destructive.
 */
export { dnsUpdateScenarios } from '../state/dns.ts';
export { sftpRemoveScenarios } from '../state/sftp.ts';
export { wpaUserScenarios } from '../state/wpa.ts';
export { EMBEDDED_BUDGET, LIVE_BUDGET, type StateBudget } from '../state/property.ts';
