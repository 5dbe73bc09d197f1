import { describe, expect, it } from 'vitest';
import { decideEdit, type EditPolicyAnswer, type EditPolicyContext } from '../../src/edits/edit-policy.js';

type Row = readonly [path: string, created: boolean, answer: EditPolicyAnswer];

function check(context: EditPolicyContext, rows: readonly Row[]): void {
  const got = rows.map(([path, created]) => [path, created, decideEdit(path, created, context).answer]);
  expect(got).toEqual(rows.map((row) => [...row]));
}

describe('edit policy', () => {
  it('a chat file at the repository root opens only the root folder, and never dot-named paths', () => {
    check({ chatFiles: ['main.py'] }, [
      ['main.py', false, 'no-question'],
      ['helper.py', true, 'no-question'],
      ['deep/new/x.py', true, 'ask'],
      ['src/x.py', true, 'ask'],
      ['.editorconfig', true, 'ask'],
      ['.github/workflows/ci.yml', true, 'ask'],
      ['other.py', false, 'ask'],
    ]);
  });

  it('a chat file in a folder opens that folder and below, without dot-named parts', () => {
    check({ chatFiles: ['src/app.ts'] }, [
      ['src/util.ts', true, 'no-question'],
      ['src/deep/er/x.ts', true, 'no-question'],
      ['src/.hidden/x.ts', true, 'ask'],
      ['src/.eslintrc.json', true, 'ask'],
      ['srcx/y.ts', true, 'ask'],
      ['top.ts', true, 'ask'],
      ['lib/y.ts', true, 'ask'],
    ]);
  });

  it("tandem's own files and .git are refused, new or existing, in the chat or not", () => {
    check({ chatFiles: ['.tandem.conf.yml', 'README.md'] }, [
      ['.tandem.conf.yml', false, 'refused'],
      ['.tandem.conf.yml', true, 'refused'],
      ['sub/.tandem.conf.yml', true, 'refused'],
      ['.TANDEM.CONF.YML', true, 'refused'],
      ['.tandem.conf.yaml', true, 'refused'],
      ['.tandem/sessions/x.jsonl', true, 'refused'],
      ['.tandem/approved-commands.json', true, 'refused'],
      ['sub/.tandem/chat.history.md', true, 'refused'],
      ['.git/hooks/pre-commit', true, 'refused'],
      ['.git/config', false, 'refused'],
      ['vendor/.git/config', false, 'refused'],
    ]);
  });

  it('files that change what runs next need a person, even in the chat', () => {
    check({ chatFiles: ['.env', 'app.py'], hooksDir: 'tools/hooks' }, [
      ['.env', false, 'person-only'],
      ['.env', true, 'person-only'],
      ['.env.local', true, 'person-only'],
      ['.env.example', true, 'ask'],
      ['config/.env', true, 'person-only'],
      ['.envrc', true, 'person-only'],
      ['.gitmodules', true, 'person-only'],
      ['.husky/pre-commit', true, 'person-only'],
      ['.husky/_/post-commit', true, 'person-only'],
      ['.githooks/pre-push', true, 'person-only'],
      ['tools/hooks/post-commit', true, 'person-only'],
      ['tools/hooks', true, 'person-only'],
      ['tools/hookscript.sh', true, 'ask'],
      ['tools/other.sh', false, 'ask'],
    ]);
  });

  it('read-only files are refused', () => {
    check({ chatFiles: ['AGENTS.md'], readOnly: ['AGENTS.md', 'docs/notes.md'] }, [
      ['AGENTS.md', false, 'refused'],
      ['docs/notes.md', false, 'refused'],
      ['docs/other.md', false, 'ask'],
    ]);
  });

  it('says why, for the model', () => {
    expect(decideEdit('.tandem/x', true, { chatFiles: [] }).reason).toMatch(/\.tandem/);
    expect(decideEdit('.husky/pre-commit', true, { chatFiles: [] }).reason).toMatch(/hook/);
  });
});

/** One row: the path, whether the reply creates it, what the repository is set up with, the answer. */
type ConfigRow = readonly [path: string, created: boolean, setup: Partial<EditPolicyContext>, answer: EditPolicyAnswer];

const PY_LINT = { commands: ['python3 -m py_compile'] };
const PYTEST = { commands: ['pytest -q'] };
const NPM_TEST = { commands: ['npm test'] };

describe('files that change what git or an approved command does', () => {
  const rows: readonly ConfigRow[] = [
    // hook managers' configs, new or existing, with or without commands
    ['.pre-commit-config.yaml', true, {}, 'person-only'],
    ['.pre-commit-config.yaml', false, {}, 'person-only'],
    ['.pre-commit-config.yml', true, {}, 'person-only'],
    ['lefthook.yml', true, {}, 'person-only'],
    ['lefthook.yaml', false, {}, 'person-only'],
    ['.lefthook.yml', true, {}, 'person-only'],
    ['lefthook-local.yml', true, {}, 'person-only'],
    ['.lefthook-local.yaml', true, {}, 'person-only'],
    ['lefthook.toml', true, {}, 'person-only'],
    ['lefthook.json', true, {}, 'person-only'],
    ['.config/lefthook.yml', true, {}, 'person-only'],
    ['.lefthook/pre-commit/check.sh', true, {}, 'person-only'],
    ['.simple-git-hooks.json', true, {}, 'person-only'],
    ['.simple-git-hooks.cjs', true, {}, 'person-only'],
    ['simple-git-hooks.js', true, {}, 'person-only'],
    ['.overcommit.yml', true, {}, 'person-only'],
    ['.husky/pre-push', false, {}, 'person-only'],
    ['.githooks/post-checkout', true, {}, 'person-only'],
    ['docs/lefthook.md', true, {}, 'ask'],
    ['pre-commit-notes.yaml', true, {}, 'no-question'],
    // files the repository's git config includes
    ['shared.gitconfig', false, { gitIncludes: ['shared.gitconfig'] }, 'person-only'],
    ['config/git/extra', true, { gitIncludes: ['config/git/extra', 'x'] }, 'person-only'],
    ['Shared.GitConfig', false, { gitIncludes: ['shared.gitconfig'] }, 'person-only'],
    ['shared.gitconfig', false, {}, 'ask'],
    // installed code
    ['node_modules/eslint/lib/api.js', true, {}, 'person-only'],
    ['venv/lib/python3.11/site-packages/json/__init__.py', true, {}, 'person-only'],
    // a Python module named like one the lint command imports, where Python looks first
    ['py_compile.py', true, PY_LINT, 'person-only'],
    ['json.py', true, PY_LINT, 'person-only'],
    ['json/__init__.py', true, PY_LINT, 'person-only'],
    ['src/json.py', true, PY_LINT, 'person-only'],
    ['src/pkg/json.py', true, PY_LINT, 'no-question'],
    ['helpers.py', true, PY_LINT, 'no-question'],
    ['py_compile.py', true, {}, 'no-question'],
    ['py_compile.py', true, NPM_TEST, 'no-question'],
    ['py_compile.py', false, PY_LINT, 'ask'],
    ['pytest.py', true, PYTEST, 'person-only'],
    ['pluggy.py', true, PYTEST, 'person-only'],
    ['typing_extensions.py', true, PY_LINT, 'person-only'],
    ['mylinter.py', true, { commands: ['python: python -m mylinter --strict'] }, 'person-only'],
    ['unittest.py', true, { commands: ['python -m unittest discover'] }, 'person-only'],
    // a tool's config file when that tool is the lint or test command
    ['conftest.py', true, PYTEST, 'person-only'],
    ['tests/deep/conftest.py', true, PYTEST, 'person-only'],
    ['pytest.ini', true, PYTEST, 'person-only'],
    ['setup.cfg', true, PYTEST, 'person-only'],
    ['tox.ini', true, PYTEST, 'person-only'],
    ['pyproject.toml', true, PYTEST, 'person-only'],
    ['pyproject.toml', true, PY_LINT, 'no-question'],
    ['conftest.py', true, {}, 'no-question'],
    ['eslint.config.js', true, { commands: ['npx eslint .'] }, 'person-only'],
    ['eslint.config.mjs', true, { commands: ['javascript: ./node_modules/.bin/eslint --fix'] }, 'person-only'],
    ['.eslintrc.cjs', true, { commands: ['eslint'] }, 'person-only'],
    ['eslint.config.js', true, PYTEST, 'no-question'],
    ['jest.config.ts', true, { commands: ['npx jest'] }, 'person-only'],
    ['babel.config.js', true, { commands: ['yarn jest --ci'] }, 'person-only'],
    ['vitest.config.mts', true, { commands: ['pnpm vitest run'] }, 'person-only'],
    ['vite.config.ts', true, { commands: ['npx vitest run'] }, 'person-only'],
    ['jest.config.js', true, { commands: ['npx vitest'] }, 'no-question'],
    ['jest.config.js', false, { commands: ['npx jest'] }, 'ask'],
    ['GNUmakefile', true, { commands: ['make test'] }, 'person-only'],
    ['Makefile', false, { commands: ['make test'] }, 'ask'],
    ['GNUmakefile', true, PYTEST, 'no-question'],
    ['.npmrc', true, NPM_TEST, 'person-only'],
    ['.npmrc', false, NPM_TEST, 'person-only'],
    ['.yarnrc.yml', false, { commands: ['yarn test'] }, 'person-only'],
    ['.pnpmfile.cjs', true, { commands: ['pnpm -r test'] }, 'person-only'],
    ['.npmrc', true, PYTEST, 'ask'],
  ];

  it.each(rows)('%s (new: %s) with %j: %s', (path, created, setup, answer) => {
    const dotted = path.split('/').some((s) => s.startsWith('.'));
    expect(decideEdit(path, created, { chatFiles: ['app.py', 'src/app.py'], ...setup }).answer, dotted ? 'dot-named' : '').toBe(answer);
  });

  const pkg = (extra: Record<string, unknown>): string => `${JSON.stringify({ name: 'x', version: '1.0.0', ...extra }, null, 2)}\n`;
  const manifestRows: ReadonlyArray<readonly [what: string, before: string | null, after: string, setup: Partial<EditPolicyContext>, answer: EditPolicyAnswer]> = [
    ['a dependency', pkg({}), pkg({ dependencies: { a: '1' } }), NPM_TEST, 'no-question'],
    ['simple-git-hooks added', pkg({}), pkg({ 'simple-git-hooks': { 'pre-commit': 'touch /tmp/x' } }), {}, 'person-only'],
    ['husky 4 hooks changed', pkg({ husky: { hooks: { 'pre-commit': 'a' } } }), pkg({ husky: { hooks: { 'pre-commit': 'b' } } }), {}, 'person-only'],
    ['lint-staged added', pkg({}), pkg({ 'lint-staged': { '*.js': 'node x.js' } }), {}, 'person-only'],
    ['scripts with npm test', pkg({ scripts: { test: 'jest' } }), pkg({ scripts: { test: 'node evil.js' } }), NPM_TEST, 'person-only'],
    ['scripts without a script runner', pkg({ scripts: { test: 'jest' } }), pkg({ scripts: { test: 'node evil.js' } }), PYTEST, 'no-question'],
    ['a new package.json with hooks', null, pkg({ 'simple-git-hooks': { 'pre-commit': 'x' } }), {}, 'person-only'],
    ['an unparsable result', pkg({}), '{ "simple-git-hooks": ', {}, 'no-question'],
  ];

  it.each(manifestRows)('package.json, %s: %s', (_, before, after, setup, answer) => {
    const context = { chatFiles: ['package.json'], ...setup };
    expect(decideEdit('package.json', before === null, context, { before, after }).answer).toBe(answer);
  });
});
