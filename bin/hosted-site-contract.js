#!/usr/bin/env node
// Registers the TypeScript loader, then hands over to the command dispatcher;
// the sources run as written, with no build step.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
