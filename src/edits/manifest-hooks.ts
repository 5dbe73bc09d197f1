// package.json holds commands too: git hooks (simple-git-hooks, husky 4, yorkie, pre-commit, lint-staged)
// and the scripts `npm test` runs. An edit that changes those parts changes what runs next; any other
// change to package.json (a dependency, a version) is ordinary. Pure: both texts in, a reason out.
import { posix } from 'node:path';

const HOOK_KEYS: readonly string[] = ['simple-git-hooks', 'husky', 'gitHooks', 'pre-commit', 'precommit', 'pre-push', 'lint-staged'];
// A command that runs a package.json script: `npm test`, `npm run lint`, `yarn test`, `pnpm -r test`, `bun run x`.
const SCRIPT_RUNNER = /(?:^|[\s;&|(])(?:npm|yarn|pnpm|bun)(?:\s|$)/;

/** Why this edit of a package.json needs a person, or null when it changes no hook or script a command runs. */
export function manifestHookReason(path: string, before: string | null, after: string, commands: readonly string[]): string | null {
  if (posix.basename(path) !== 'package.json') return null;
  const old = parseObject(before);
  const next = parseObject(after);
  const changed = HOOK_KEYS.find((key) => JSON.stringify(old[key]) !== JSON.stringify(next[key]));
  if (changed !== undefined) return `${path}'s "${changed}" settings name commands git hooks run: changing them changes what runs next`;
  if (commands.some((c) => SCRIPT_RUNNER.test(c)) && JSON.stringify(old.scripts) !== JSON.stringify(next.scripts)) {
    return `${path}'s "scripts" are what your lint/test command runs: changing them changes what runs next`;
  }
  return null;
}

function parseObject(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // Unparsable after the edit: npm reads nothing from it, so nothing in it runs.
    return {};
  }
}
