// New files that change what an approved lint or test command does without changing its text: a
// Python module named like one the command imports, or a config file the command's tool loads (and
// runs: eslint.config.js, conftest.py, jest.config.js are code). Pure: paths and command texts in.
import { posix } from 'node:path';
import { PYTHON_STDLIB_MODULES, PYTHON_TOOL_MODULES } from './python-modules.js';

/** A tool that may appear in a command, and the file names (lower case, any folder) it loads as config. */
interface ToolConfigs {
  readonly tool: RegExp;
  readonly names: RegExp;
  /** Existing files too: the file is settings that run code, never ordinary content (`.npmrc`'s node-options). */
  readonly always?: boolean;
}

const JS = '(?:js|mjs|cjs|ts|mts|cts|json|jsonc|json5|ya?ml|toml)';
const PYTEST_FILES = /^(?:conftest\.py|pytest\.ini|\.pytest\.ini|pyproject\.toml|setup\.cfg|tox\.ini)$/;

const TOOL_CONFIGS: readonly ToolConfigs[] = [
  { tool: /^(?:pytest|py\.test)$/, names: PYTEST_FILES },
  { tool: /^(?:tox)$/, names: /^(?:tox\.ini|pyproject\.toml|setup\.cfg|conftest\.py)$/ },
  { tool: /^(?:nox)$/, names: /^noxfile\.py$/ },
  { tool: /^(?:mypy|dmypy)$/, names: /^(?:\.?mypy\.ini|pyproject\.toml|setup\.cfg)$/ },
  { tool: /^(?:flake8)$/, names: /^(?:\.flake8|setup\.cfg|tox\.ini)$/ },
  { tool: /^(?:pylint)$/, names: /^(?:\.?pylintrc|\.pylintrc\.toml|pyproject\.toml|setup\.cfg)$/ },
  { tool: /^(?:eslint)$/, names: new RegExp(`^(?:eslint\\.config\\.${JS}|\\.eslintrc(?:\\.${JS})?)$`) },
  { tool: /^(?:jest)$/, names: new RegExp(`^(?:jest\\.config\\.${JS}|babel\\.config\\.${JS}|\\.babelrc(?:\\.${JS})?)$`) },
  { tool: /^(?:vitest)$/, names: new RegExp(`^(?:vitest\\.(?:config|workspace)\\.${JS}|vite\\.config\\.${JS})$`) },
  { tool: /^(?:mocha)$/, names: new RegExp(`^\\.mocharc(?:\\.${JS})?$`) },
  { tool: /^(?:prettier)$/, names: new RegExp(`^(?:prettier\\.config\\.${JS}|\\.prettierrc(?:\\.${JS})?)$`) },
  { tool: /^(?:stylelint)$/, names: new RegExp(`^(?:stylelint\\.config\\.${JS}|\\.stylelintrc(?:\\.${JS})?)$`) },
  // make prefers GNUmakefile to Makefile: a new one replaces the rules `make test` runs.
  { tool: /^(?:make|gmake)$/, names: /^(?:gnumakefile|makefile)$/ },
  { tool: /^(?:just)$/, names: /^\.?justfile$/ },
  // Package managers read their settings from the project (node-options, script-shell, pnpm's hooks).
  { tool: /^(?:npm|npx|yarn|pnpm|pnpx|bun|bunx)$/, names: /^(?:\.npmrc|\.yarnrc(?:\.ya?ml)?|\.pnpmfile\.c?js|bunfig\.toml)$/, always: true },
];

// Commands that run Python (and so import modules by name from the folders Python puts first).
const PYTHON_TOOLS = /^(?:python[\d.]*|pypy[\d.]*|pytest|py\.test|tox|nox|mypy|dmypy|pylint|flake8|black|isort|coverage|uv|uvx|poetry|pipenv|hatch|pdm|bandit|pyflakes|pycodestyle|autopep8|yapf)$/;
// Words that only launch another command: the tool is a later word.
const LAUNCHERS = /^(?:npx|pnpx|bunx|uvx|env|exec|time|nice|command|sudo|yarn|pnpm|bun|npm|run|exec|dlx|poetry|pipenv|uv|hatch|pdm|-m)$/;

/** The tools named in a command: each word's base name (`./node_modules/.bin/eslint` is eslint). */
function commandWords(command: string): string[] {
  const text = command.replace(/^[\w+-]+:\s+/, ''); // "python: CMD" lint form
  return text
    .split(/[\s;&|()]+/)
    .filter((w) => w !== '' && !w.includes('='))
    .map((w) => posix.basename(w.replace(/^['"]|['"]$/g, '')).toLowerCase());
}

/** Modules a command names with `-m` (`python3 -m py_compile`), which Python imports by name. */
function moduleArgs(command: string): string[] {
  return [...command.matchAll(/(?:^|\s)-m\s*([\w.]+)/g)].map((m) => (m[1] ?? '').split('.')[0] ?? '').filter((m) => m !== '');
}

export interface ShadowContext {
  /** The lint and test commands tandem may run, as written. */
  readonly commands: readonly string[];
  readonly chatFiles: readonly string[];
}

/** Why a file at `path` (new when `created`) would change what an approved command runs, or null. */
export function commandShadowReason(path: string, created: boolean, context: ShadowContext): string | null {
  if (context.commands.length === 0) return null;
  const base = posix.basename(path).toLowerCase();
  const words = context.commands.flatMap(commandWords);
  for (const { tool, names, always } of TOOL_CONFIGS) {
    if (!created && always !== true) continue;
    const named = words.find((w) => tool.test(w));
    if (named !== undefined && names.test(base)) return `${path} is a config file ${named} loads, and ${named} is in your lint/test command`;
  }
  if (!created || !words.some((w) => PYTHON_TOOLS.test(w))) return null;
  const tools = words.filter((w) => !LAUNCHERS.test(w));
  const module = pythonModuleOf(path);
  if (module === null || !whereImportsLook(path, context.chatFiles)) return null;
  const named = new Set([...context.commands.flatMap(moduleArgs), ...tools.filter((w) => PYTHON_TOOLS.test(w)).map((w) => w.replace(/\./g, '_'))]);
  if (PYTHON_STDLIB_MODULES.has(module) || PYTHON_TOOL_MODULES.has(module) || named.has(module)) {
    return `${path} has the name of the Python module \`${module}\`, which your lint/test command would import instead of the real one`;
  }
  return null;
}

/** `json.py` -> json, `json/__init__.py` -> json; null for anything else. */
function pythonModuleOf(path: string): string | null {
  const parts = path.split('/');
  const base = parts.at(-1) ?? '';
  if (/^__init__\.pyw?$/.test(base) && parts.length >= 2) return parts.at(-2) ?? null;
  const m = /^([^.]+)\.(?:py|pyw|pyc|so|pyd)$/.exec(base);
  return m?.[1] ?? null;
}

/** Python looks first in the folder of the script or test it runs and in the working folder (the root). */
function whereImportsLook(path: string, chatFiles: readonly string[]): boolean {
  const parts = path.split('/');
  const moduleFolder = /^__init__\.pyw?$/.test(parts.at(-1) ?? '') ? parts.slice(0, -2) : parts.slice(0, -1);
  const folder = moduleFolder.join('/') || '.';
  return folder === '.' || chatFiles.some((chat) => posix.dirname(chat) === folder);
}
