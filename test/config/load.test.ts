import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, parseDotenv, type LoadConfigOptions } from '../../src/config/load.js';
import { defaultSettings, type Settings } from '../../src/config/schema.js';

let home: string;
let repo: string;

beforeEach(async () => {
  const root = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tandem-config-'));
  home = path.join(root, 'home');
  repo = path.join(root, 'repo');
  fs.mkdirSync(home);
  fs.mkdirSync(repo);
});

afterEach(() => {
  fs.rmSync(path.dirname(home), { recursive: true, force: true });
});

function readFile(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function write(file: string, text: string): string {
  fs.writeFileSync(file, text);
  return file;
}

const homeConf = () => path.join(home, '.tandem.conf.yml');
const repoConf = () => path.join(repo, '.tandem.conf.yml');
const dotenv = () => path.join(repo, '.env');

function load(overrides: Partial<LoadConfigOptions> = {}) {
  return loadConfig({ homeDir: home, repoRoot: repo, env: {}, flags: {}, readFile, ...overrides });
}

function messages(result: ReturnType<typeof load>, severity: 'error' | 'warning'): string[] {
  return result.problems.filter((p) => p.severity === severity).map((p) => p.message);
}

describe('loadConfig layers', () => {
  it('gives the defaults, all from "default", with no files at all', () => {
    const result = load();
    expect(result.settings).toEqual(defaultSettings());
    expect(new Set(result.sources.values())).toEqual(new Set(['default']));
    expect(result.problems).toEqual([]);
    expect(result.approvalsNeeded).toEqual([]);
  });

  it('lets each later layer win: home < repo < --config < .env < environment < flags', () => {
    const keys = ['map-tokens', 'max-reflections', 'context-window', 'request-timeout', 'command-timeout', 'max-chat-history-tokens'] as const;
    const yaml = (from: number, value: number) => keys.slice(from).map((k) => `${k}: ${value}`).join('\n');
    const envName = (k: string) => `TANDEM_${k.toUpperCase().replace(/-/g, '_')}`;
    write(homeConf(), yaml(0, 1));
    write(repoConf(), yaml(1, 2));
    const explicit = write(path.join(home, 'extra.yml'), yaml(2, 3));
    write(dotenv(), keys.slice(3).map((k) => `${envName(k)}=4`).join('\n'));
    const env = Object.fromEntries(keys.slice(4).map((k) => [envName(k), '5']));
    const flags: Partial<Settings> = { 'max-chat-history-tokens': 6, config: explicit };

    const result = load({ env, flags });

    expect(keys.map((k) => result.settings[k])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(keys.map((k) => result.sources.get(k))).toEqual(['home', 'repo', 'config-file', 'dotenv', 'env', 'flag']);
    expect(result.problems).toEqual([]);
  });

  it('reads the explicit config file given as an option over flags.config', () => {
    const a = write(path.join(home, 'a.yml'), 'model: from-a');
    const b = write(path.join(home, 'b.yml'), 'model: from-b');
    expect(load({ explicitConfigFile: a, flags: { config: b } }).settings.model).toBe('from-a');
    expect(load({ flags: { config: b } }).settings.model).toBe('from-b');
  });

  it('reads a repository at the home directory once, as the user\'s own file', () => {
    write(homeConf(), 'yes-always: true');
    const result = load({ repoRoot: `${home}/` });
    expect(result.settings['yes-always']).toBe(true);
    expect(result.sources.get('yes-always')).toBe('home');
    expect(result.problems).toEqual([]);
  });

  it('reads no repository file and no .env outside a repository', () => {
    write(homeConf(), 'map-tokens: 10');
    const result = load({ repoRoot: null });
    expect(result.settings['map-tokens']).toBe(10);
  });
});

describe('loadConfig safety', () => {
  it('ignores a repository config that turns on yes-always, with a warning', () => {
    write(repoConf(), 'yes-always: true\nmap-tokens: 7');
    const result = load();
    expect(result.settings['yes-always']).toBe(false);
    expect(result.sources.get('yes-always')).toBe('default');
    expect(result.settings['map-tokens']).toBe(7);
    expect(messages(result, 'warning')).toEqual([
      `${repoConf()}: yes-always: ignored; the repository's config cannot turn on yes-always`,
    ]);
    expect(messages(result, 'error')).toEqual([]);
  });

  it('lets a repository config turn yes-always off, and the user turn it on', () => {
    write(homeConf(), 'yes-always: true');
    write(repoConf(), 'yes-always: false');
    expect(load().settings['yes-always']).toBe(false);
    expect(load({ flags: { 'yes-always': true } }).settings['yes-always']).toBe(true);
    expect(load({ env: { TANDEM_YES_ALWAYS: 'yes' } }).settings['yes-always']).toBe(true);
  });

  it('ignores TANDEM_YES_ALWAYS from the repository .env too', () => {
    write(dotenv(), 'TANDEM_YES_ALWAYS=1');
    const result = load();
    expect(result.settings['yes-always']).toBe(false);
    expect(messages(result, 'warning')[0]).toContain("cannot turn on yes-always");
  });

  it('asks for approval of lint and test commands named by the repository, once per command', () => {
    write(repoConf(), 'test-cmd: npm test\nlint-cmd:\n  - "python: ruff check"\n  - eslint');
    const result = load();
    expect(result.settings['test-cmd']).toBe('npm test');
    expect(result.approvalsNeeded).toEqual([
      { key: 'lint-cmd', value: 'python: ruff check', source: 'repo', file: repoConf() },
      { key: 'lint-cmd', value: 'eslint', source: 'repo', file: repoConf() },
      { key: 'test-cmd', value: 'npm test', source: 'repo', file: repoConf() },
    ]);
  });

  it('needs no approval for the user\'s own commands or for repository commands the user replaced', () => {
    write(homeConf(), 'test-cmd: make test');
    expect(load().approvalsNeeded).toEqual([]);
    write(repoConf(), 'test-cmd: rm -rf /');
    expect(load({ flags: { 'test-cmd': 'pytest' } }).approvalsNeeded).toEqual([]);
    expect(load({ env: { TANDEM_TEST_CMD: 'pytest' } }).approvalsNeeded).toEqual([]);
  });

  it('asks once for repository settings that raise what a request may cost, and only those', () => {
    write(repoConf(), 'model: o1\nweak-model: o1\nmax-reflections: 100\nmap-tokens: 8192\nreasoning-effort: high\narchitect: true\nmax-retries: 1\n');
    write(dotenv(), 'TANDEM_EDITOR_MODEL=o1-pro\nTANDEM_CONTEXT_WINDOW=1000000');
    const byKey = Object.fromEntries(load().approvalsNeeded.map((a) => [a.key, [a.value, a.cost, a.source]]));
    expect(byKey).toEqual({
      model: ['o1', true, 'repo'],
      'weak-model': ['o1', true, 'repo'],
      'editor-model': ['o1-pro', true, 'dotenv'],
      architect: ['true', true, 'repo'],
      'context-window': ['1000000', true, 'dotenv'],
      'reasoning-effort': ['high', true, 'repo'],
      'map-tokens': ['8192', true, 'repo'],
      'max-reflections': ['100', true, 'repo'],
    });
  });

  it('needs no approval for settings that lower the cost, equal the default, or that the user set', () => {
    write(repoConf(), 'model: gpt-4o\nmax-reflections: 1\nmap-tokens: 512\narchitect: false\n');
    expect(load().approvalsNeeded).toEqual([]);
    write(repoConf(), 'model: o1\nmax-reflections: 100\n');
    expect(load({ flags: { model: 'gpt-4o-mini', 'max-reflections': 3 } }).approvalsNeeded).toEqual([]);
    expect(load({ env: { TANDEM_MODEL: 'm', TANDEM_MAX_REFLECTIONS: '5' } }).approvalsNeeded).toEqual([]);
  });

  it('asks for approval of a test command from the repository .env', () => {
    write(dotenv(), 'TANDEM_TEST_CMD="make check"');
    expect(load().approvalsNeeded).toEqual([{ key: 'test-cmd', value: 'make check', source: 'dotenv', file: dotenv() }]);
  });

  it("never lets a repository's API key replace the user's, and asks once before using it", () => {
    write(homeConf(), 'api-key: sk-home');
    write(repoConf(), 'api-key: sk-repo');
    write(dotenv(), 'OPENAI_API_KEY=sk-dotenv');
    const fromHome = load();
    expect(fromHome.settings['api-key']).toBe('sk-home');
    expect(fromHome.approvalsNeeded).toEqual([]);
    expect(messages(fromHome, 'warning').join('\n')).toMatch(/api-key: ignored; your own api-key is used/);
    expect(load({ env: { OPENAI_API_KEY: 'sk-env' } }).settings['api-key']).toBe('sk-env');
    fs.rmSync(homeConf());
    const none = load();
    expect(none.settings['api-key']).toBe('sk-dotenv');
    expect(none.approvalsNeeded).toEqual([{ key: 'api-key', value: 'sk-dotenv', source: 'dotenv', file: dotenv(), secret: true }]);
    fs.rmSync(dotenv());
    expect(load().approvalsNeeded).toEqual([{ key: 'api-key', value: 'sk-repo', source: 'repo', file: repoConf(), secret: true }]);
  });

  it('takes path settings from a repository only when they stay inside it', () => {
    write(repoConf(), `read: [docs/a.md, ../outside/secret.txt, /etc/passwd, ${path.join(repo, 'b.md')}, ~/.ssh/id_rsa]\nllm-log: ../outside/llm.jsonl\n`);
    const result = load();
    expect(result.settings.read).toEqual(['docs/a.md', path.join(repo, 'b.md')]);
    expect(result.settings['llm-log']).toBeNull();
    expect(messages(result, 'warning')).toHaveLength(4);
    write(dotenv(), 'TANDEM_LLM_LOG=/tmp/x.jsonl\nTANDEM_READ=../y');
    fs.rmSync(repoConf());
    const fromEnv = load();
    expect(fromEnv.settings['llm-log']).toBeNull();
    expect(fromEnv.settings.read).toEqual([]);
    expect(load({ flags: { 'llm-log': '/tmp/mine.jsonl' } }).settings['llm-log']).toBe('/tmp/mine.jsonl');
  });

  it("never takes pass-env or git-commit-verify from a repository", () => {
    write(repoConf(), 'pass-env: [GITHUB_TOKEN]\ngit-commit-verify: true\n');
    const result = load();
    expect(result.settings['pass-env']).toEqual([]);
    expect(result.settings['git-commit-verify']).toBe(false);
    write(homeConf(), 'pass-env: [GITHUB_TOKEN]\ngit-commit-verify: true\n');
    fs.rmSync(repoConf());
    expect(load().settings['pass-env']).toEqual(['GITHUB_TOKEN']);
    expect(load().settings['git-commit-verify']).toBe(true);
  });
});

describe('loadConfig problems', () => {
  it('names file, key and value for a wrong type in each file layer', () => {
    write(homeConf(), 'map-tokens: lots');
    write(repoConf(), 'edit-format: bogus');
    const explicit = write(path.join(home, 'x.yml'), 'auto-commits: [1, 2]\nmodel: {a: 1}');
    const result = load({ explicitConfigFile: explicit });
    expect(messages(result, 'error')).toEqual([
      '~/.tandem.conf.yml: map-tokens: expected a whole number >= 0, got "lots"',
      `${repoConf()}: edit-format: "bogus" is not one of diff, diff-fenced, whole, udiff, ask`,
      `${explicit}: auto-commits: expected true or false, got [1,2]`,
      `${explicit}: model: expected a string, got {"a":1}`,
    ]);
    expect(result.settings['map-tokens']).toBe(1024);
    expect(result.problems.map((p) => p.source)).toEqual(['home', 'repo', 'config-file', 'config-file']);
  });

  it('names the variable and value for a wrong type from the environment and .env', () => {
    write(dotenv(), 'TANDEM_STREAM=maybe');
    const result = load({ env: { TANDEM_MAP_TOKENS: '-1', TANDEM_EDIT_FORMAT: 'bogus' } });
    expect(messages(result, 'error')).toEqual([
      `TANDEM_EDIT_FORMAT: "bogus" is not one of diff, diff-fenced, whole, udiff, ask`,
      `${dotenv()}: TANDEM_STREAM: expected true or false, got "maybe"`,
      'TANDEM_MAP_TOKENS: expected a whole number >= 0, got "-1"',
    ]);
    expect(result.settings.stream).toBe(true);
  });

  it('reports malformed YAML, a non-mapping file and a missing --config file as errors', () => {
    write(homeConf(), 'map-tokens: [1\nmodel: x');
    write(repoConf(), '- just\n- a list');
    const result = load({ explicitConfigFile: path.join(home, 'missing.yml') });
    const errors = messages(result, 'error');
    expect(errors[0]).toMatch(/^~\/\.tandem\.conf\.yml: not valid YAML: \S/);
    expect(errors[0]).not.toContain('\n');
    expect(errors.slice(1)).toEqual([
      `${repoConf()}: expected a mapping of option names to values`,
      `${path.join(home, 'missing.yml')}: file not found`,
    ]);
  });

  it('reports an unresolved YAML alias as invalid YAML', () => {
    write(homeConf(), 'model: *nowhere');
    expect(messages(load(), 'error')[0]).toMatch(/^~\/\.tandem\.conf\.yml: not valid YAML: /);
  });

  it('turns a failing readFile into a problem instead of throwing', () => {
    const result = load({
      readFile: () => {
        throw new Error('EACCES: permission denied');
      },
    });
    expect(messages(result, 'error')).toEqual(['~/.tandem.conf.yml: cannot read: EACCES: permission denied', `${repoConf()}: cannot read: EACCES: permission denied`]);
    expect(messages(result, 'warning')).toEqual([`${dotenv()}: cannot read: EACCES: permission denied`]);
  });

  it('warns about unknown keys with a suggestion, and about command-line-only keys', () => {
    write(homeConf(), 'map-token: 5\ncolour: blue\nmessage: hi');
    const result = load();
    expect(messages(result, 'warning')).toEqual([
      "~/.tandem.conf.yml: unknown setting 'map-token' ignored; did you mean map-tokens?",
      "~/.tandem.conf.yml: unknown setting 'colour' ignored",
      '~/.tandem.conf.yml: message can only be given on the command line; ignored',
    ]);
    expect(messages(result, 'error')).toEqual([]);
  });

  it('warns about unknown TANDEM_ variables', () => {
    const result = load({ env: { TANDEM_MAP_TOKEN: '5', PATH: '/bin' } });
    expect(messages(result, 'warning')).toEqual(['unknown variable TANDEM_MAP_TOKEN ignored; did you mean TANDEM_MAP_TOKENS?']);
  });

  it('never throws, whatever the files hold', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab:-[]{}*&!|>"\'#\n 1'.split('')) }), fc.string(), (yamlText, envText) => {
        const result = loadConfig({
          homeDir: '/h',
          repoRoot: '/r',
          env: { TANDEM_MAP_TOKENS: envText },
          flags: {},
          readFile: (file) => (file.endsWith('.env') ? envText : yamlText),
        });
        expect(result.settings).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });
});

describe('loadConfig environment', () => {
  it('parses env values by type', () => {
    const env = { TANDEM_AUTO_COMMITS: '0', TANDEM_AUTO_TEST: 'yes', TANDEM_MAP_REFRESH: 'manual', TANDEM_READ: '[a.md, b.md]', TANDEM_MODEL: 'qwen' };
    const { settings } = load({ env });
    expect(settings['auto-commits']).toBe(false);
    expect(settings['auto-test']).toBe(true);
    expect(settings['map-refresh']).toBe('manual');
    expect(settings.read).toEqual(['a.md', 'b.md']);
    expect(settings.model).toBe('qwen');
    expect(load({ env: { TANDEM_READ: 'notes.md' } }).settings.read).toEqual(['notes.md']);
  });

  it('reads OPENAI_API_KEY and OPENAI_BASE_URL, with TANDEM_ names first', () => {
    const result = load({ env: { OPENAI_API_KEY: 'sk-openai', OPENAI_BASE_URL: 'http://x/v1', TANDEM_API_KEY: 'sk-tandem' } });
    expect(result.settings['api-key']).toBe('sk-tandem');
    expect(result.settings['base-url']).toBe('http://x/v1');
    expect(result.sources.get('base-url')).toBe('env');
  });

  it('takes from .env only what the real environment lacks, and only tandem\'s variables', () => {
    write(dotenv(), 'export OPENAI_API_KEY="sk-from-file"\nOPENAI_BASE_URL=http://file/v1\nTANDEM_API_KEY=sk-tandem-file\nAWS_SECRET=x\nTANDEM_MAP_TOKENS=99');
    const result = load({ env: { OPENAI_API_KEY: 'sk-real', TANDEM_MAP_TOKENS: '' } });
    // the real OPENAI_API_KEY beats the .env's TANDEM_API_KEY even though TANDEM_ names usually win
    expect(result.settings['api-key']).toBe('sk-real');
    expect(result.sources.get('api-key')).toBe('env');
    expect(result.settings['base-url']).toBe('http://file/v1');
    expect(result.sources.get('base-url')).toBe('dotenv');
    expect(result.settings['map-tokens']).toBe(99);
    expect(result.problems).toEqual([]);
  });
});

describe('parseDotenv', () => {
  it('reads KEY=VALUE lines with quotes, comments and export', () => {
    const text = [
      '# a comment',
      '',
      'PLAIN=value',
      'export EXPORTED=yes',
      'SPACED = padded value  ',
      'INLINE=abc # trailing comment',
      'HASH=abc#def',
      'DOUBLE="two words # not a comment"',
      'ESCAPED="line\\nnext \\"q\\""',
      "SINGLE='raw \\n $HOME'",
      'EQUALS=a=b=c',
      'EMPTY=',
      'not a line',
      '1BAD=x',
      'CRLF=yes\r',
    ].join('\n');
    expect(Object.fromEntries(parseDotenv(text))).toEqual({
      PLAIN: 'value',
      EXPORTED: 'yes',
      SPACED: 'padded value',
      INLINE: 'abc',
      HASH: 'abc#def',
      DOUBLE: 'two words # not a comment',
      ESCAPED: 'line\nnext "q"',
      SINGLE: 'raw \\n $HOME',
      EQUALS: 'a=b=c',
      EMPTY: '',
      CRLF: 'yes',
    });
  });
});
