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
