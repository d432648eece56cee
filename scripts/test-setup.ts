// Fixed fast-check seed for reproducible runs; override with FC_SEED. fast-check prints the
// seed and the shrunk counterexample of any failing property.
import fc from 'fast-check';

const seed = Number(process.env.FC_SEED ?? 20261122);
fc.configureGlobal({ seed, numRuns: Number(process.env.FC_RUNS ?? 100) });
