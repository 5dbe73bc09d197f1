// Makes the built CLI executable after tsc, which does not keep file modes.
import { chmodSync, existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(entry)) chmodSync(entry, 0o755);
