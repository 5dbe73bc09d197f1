// Runs before every test file (vitest.config.ts setupFiles), isolated or not.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-repo.js';

afterAll(removeTempDirs);
