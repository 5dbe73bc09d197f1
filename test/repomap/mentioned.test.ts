// Definitions a request mentions, for that request's own message: found in packed tags (shared name
// table or not) and in plain tags, chat files left out, the mention order kept, the count bounded.
import { describe, expect, it } from 'vitest';
import { mentionedDefinitions } from '../../src/repomap/mentioned.js';
import { packTags, type FileTags } from '../../src/repomap/packed-tags.js';
import type { Tag } from '../../src/repomap/tag.js';

const tag = (path: string, name: string, role: 'def' | 'ref', line: number): Tag => ({ path, name, role, kind: role === 'def' ? 'function' : 'call', line, endLine: line });
const lines: Record<string, string[]> = {
  'db.py': ['import sqlite3', 'def get_db():', '    return sqlite3.connect()'],
  'app.py': ['from db import get_db', 'class HTTPServer:', '    pass', 'def serve():', '    get_db()'],
  'other.py': ['def get_db():  # a second one'],
};
const lineOf = (path: string, line: number): string | undefined => lines[path]?.[line];

describe('mentionedDefinitions', () => {
  const tags = new Map<string, FileTags>([
    ['app.py', packTags([tag('app.py', 'get_db', 'ref', 0), tag('app.py', 'HTTPServer', 'def', 1), tag('app.py', 'serve', 'def', 3), tag('app.py', 'get_db', 'ref', 4)])],
    ['db.py', packTags([tag('db.py', 'get_db', 'def', 1)])],
    ['other.py', [tag('other.py', 'get_db', 'def', 0)]],
  ]);

  it('lists each mentioned name where it is defined, never where it is only used', () => {
    const text = mentionedDefinitions(tags, ['HTTPServer', 'get_db', 'missing_name'], { exclude: new Set(), lineOf });
    expect(text.split('\n')).toEqual(['app.py:2: class HTTPServer:', 'db.py:2: def get_db():', 'other.py:1: def get_db():  # a second one']);
  });

  it('leaves out the chat files and bounds the count per name and in all', () => {
    expect(mentionedDefinitions(tags, ['get_db'], { exclude: new Set(['db.py']), lineOf })).toBe('other.py:1: def get_db():  # a second one');
    expect(mentionedDefinitions(tags, ['get_db'], { exclude: new Set(), lineOf, perName: 1 })).toBe('db.py:2: def get_db():');
    expect(mentionedDefinitions(tags, ['get_db', 'HTTPServer'], { exclude: new Set(), lineOf, total: 2 }).split('\n')).toHaveLength(2);
    expect(mentionedDefinitions(tags, [], { exclude: new Set(), lineOf })).toBe('');
  });

  it('finds names in files that share one name table', () => {
    const table = ['serve', 'get_db', 'helper'];
    const shared = (path: string, entries: Array<[number, number, number]>): FileTags => ({ names: table, kinds: ['def:function', 'ref:call'], data: Int32Array.from(entries.flatMap(([n, k, l]) => [n, k, l, l])) });
    const many = new Map<string, FileTags>([['app.py', shared('app.py', [[1, 1, 4], [0, 0, 3]])], ['db.py', shared('db.py', [[1, 0, 1]])]]);
    expect(mentionedDefinitions(many, ['get_db', 'serve'], { exclude: new Set(), lineOf })).toBe('db.py:2: def get_db():\napp.py:4: def serve():');
  });
});
