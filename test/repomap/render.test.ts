import { describe, expect, it } from 'vitest';
import { createMapRenderer, renderMap } from '../../src/repomap/render.js';
import { rankDefinitions, type RankedItem } from '../../src/repomap/rank.js';
import type { Tag } from '../../src/repomap/tag.js';
import { SMALL_REPO, fileReader, makeTags, tagsFor, writeRepo } from './map-fixture.js';

const GOLDEN_SMALL_MAP = `README.md
src/billing/invoice.ts:
|...
|export function calculateInvoiceTotal(lines: number[]): number {
|...
src/geometry/shapes.ts:
|export interface Shape {
|...
|export class Circle implements Shape {
|...
|  area(): number {
|...
|export class Square implements Shape {
|...
|  area(): number {
|...
src/geometry/total-area.ts:
|...
|export function totalArea(shapes: Shape[]): number {
|...
src/logging/logger.ts:
|export class Logger {
|  write(message: string): void {
|...
|export function createLogger(): Logger {
|...
`;

function defItem(tag: Tag): RankedItem {
  return { kind: 'def', tag, rank: 0 };
}

describe('renderMap', () => {
  it('renders the small repository exactly as the golden map', async () => {
    const root = await writeRepo(SMALL_REPO);
    const tags = tagsFor(SMALL_REPO);
    const { items } = rankDefinitions(tags, { chatFiles: ['src/app.ts'] });
    const text = renderMap(items, { readFile: fileReader(root), tagsByFile: tags });
    expect(text).toBe(GOLDEN_SMALL_MAP);
    expect(/^[\x20-\x7e\n]*$/.test(text)).toBe(true);
  });

  it('shows a method inside the header of its class, with elided parts marked', () => {
    const text = [
      'export class Outer {',
      '  first(): void {',
      '    doSomething();',
      '  }',
      '',
      '  second(): void {',
      '    doMore();',
      '  }',
      '}',
      '',
      'export function tail(): void {}',
    ].join('\r\n');
    const tags = makeTags('o.ts', text);
    const second = tags.find((t) => t.role === 'def' && t.name === 'second');
    expect(second).toBeDefined();
    const map = renderMap([defItem(second as Tag)], { readFile: () => text, tagsByFile: new Map([['o.ts', tags]]) });
    expect(map).toBe('o.ts:\n|export class Outer {\n|...\n|  second(): void {\n|...\n');
  });

  it('cuts long lines and lists unreadable files by path only', () => {
    const long = `export function longOne(${'argument, '.repeat(30)}): void {}`;
    const tag: Tag = { path: 'l.ts', name: 'longOne', role: 'def', kind: 'function', line: 0, endLine: 0 };
    const lost: Tag = { ...tag, path: 'gone.ts' };
    const tagsByFile = new Map([['l.ts', [tag]], ['gone.ts', [lost]]]);
    const readFile = (path: string): string | undefined => (path === 'l.ts' ? long : undefined);
    const map = renderMap([defItem(tag), defItem(lost)], { readFile, tagsByFile, maxLineLength: 40 });
    expect(map).toBe(`gone.ts\nl.ts:\n|${long.slice(0, 40)}...\n`);
  });

  it('gives the same bytes whatever the order of the chosen items', async () => {
    const root = await writeRepo(SMALL_REPO);
    const tags = tagsFor(SMALL_REPO);
    const { items } = rankDefinitions(tags, { chatFiles: ['src/app.ts'] });
    const renderer = createMapRenderer({ readFile: fileReader(root), tagsByFile: tags });
    const forward = renderer.render(items);
    expect(renderer.render([...items].reverse())).toBe(forward);
    expect(renderer.blocks(items).join('')).toBe(forward);
    expect(renderer.render([])).toBe('');
  });
});
