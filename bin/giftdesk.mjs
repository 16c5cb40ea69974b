#!/usr/bin/env node
// The giftdesk command. Runs the TypeScript sources through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../electron/cli/main.ts');
