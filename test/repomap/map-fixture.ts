// Test support for ranking, budget and map tests: temp repositories with real files and a tiny
// line-based tag maker for TypeScript-like text, so these tests don't depend on the grammars.

import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Tag } from '../../src/repomap/tag.js';

export async function writeRepo(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-map-'));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

export function fileReader(root: string): (file: string) => string | undefined {
  return (file) => {
    try {
      return readFileSync(path.join(root, file), 'utf8');
    } catch {
      return undefined;
    }
  };
}

const KEYWORDS = new Set(
  'export import from class interface function return const let new this void number string boolean private readonly public static async await implements extends type if else for of in while constructor'.split(' '),
);
const TOP_DEF = /^(?:export\s+)?(?:abstract\s+)?(class|interface|function|type|enum)\s+([A-Za-z_$][\w$]*)/;
const METHOD_DEF = /^\s+(?:(?:async|private|public|static|readonly)\s+)*([A-Za-z_$][\w$]*)\s*\(.*\)\s*(?::[^{]*)?\{\s*$/;

function blockEnd(lines: readonly string[], start: number): number {
  let depth = 0;
  for (let i = start; i < lines.length; i++) {
    for (const ch of lines[i] ?? '') {
      if (ch === '{') depth++;
      if (ch === '}') depth--;
    }
    if (depth <= 0 && (lines[i] ?? '').includes('}')) return i;
    if (depth === 0 && !(lines[i] ?? '').includes('{')) return i;
  }
  return lines.length - 1;
}

/** Definitions of classes, interfaces, functions, types and methods; every other identifier is a reference. */
export function makeTags(file: string, text: string): Tag[] {
  const lines = text.split(/\r?\n/);
  const tags: Tag[] = [];
  lines.forEach((line, index) => {
    const top = TOP_DEF.exec(line);
    const method = top === null ? METHOD_DEF.exec(line) : null;
    const defName = top?.[2] ?? method?.[1];
    if (defName !== undefined && !KEYWORDS.has(defName)) {
      tags.push({ path: file, name: defName, role: 'def', kind: top?.[1] ?? 'method', line: index, endLine: blockEnd(lines, index) });
    }
    let skippedDef = false;
    for (const match of line.matchAll(/[A-Za-z_$][\w$]*/g)) {
      const name = match[0];
      if (KEYWORDS.has(name)) continue;
      if (name === defName && !skippedDef) {
        skippedDef = true;
        continue;
      }
      tags.push({ path: file, name, role: 'ref', kind: 'ref', line: index, endLine: index });
    }
  });
  return tags;
}

export function tagsFor(files: Record<string, string>): Map<string, Tag[]> {
  return new Map(Object.entries(files).map(([file, text]) => [file, makeTags(file, text)]));
}

/** A small app: a chat file using geometry, plus unrelated logging and billing code. */
export const SMALL_REPO: Record<string, string> = {
  'src/app.ts': [
    "import { Circle, Square } from './geometry/shapes.js';",
    "import { totalArea } from './geometry/total-area.js';",
    '',
    'export function main(): void {',
    '  console.log(totalArea([new Circle(1), new Square(2)]));',
    '}',
    '',
  ].join('\n'),
  'src/geometry/shapes.ts': [
    'export interface Shape {',
    '  area(): number;',
    '}',
    '',
    'export class Circle implements Shape {',
    '  constructor(private readonly radius: number) {}',
    '',
    '  area(): number {',
    '    return Math.PI * this.radius ** 2;',
    '  }',
    '}',
    '',
    'export class Square implements Shape {',
    '  constructor(private readonly side: number) {}',
    '',
    '  area(): number {',
    '    return this.side * this.side;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/geometry/total-area.ts': [
    "import { Shape } from './shapes.js';",
    '',
    'export function totalArea(shapes: Shape[]): number {',
    '  return shapes.reduce((sum, shape) => sum + shape.area(), 0);',
    '}',
    '',
  ].join('\n'),
  'src/logging/logger.ts': [
    'export class Logger {',
    '  write(message: string): void {',
    '    process.stdout.write(message);',
    '  }',
    '}',
    '',
    'export function createLogger(): Logger {',
    '  return new Logger();',
    '}',
    '',
  ].join('\n'),
  'src/billing/invoice.ts': [
    "import { createLogger } from '../logging/logger.js';",
    '',
    'export function calculateInvoiceTotal(lines: number[]): number {',
    '  createLogger().write(String(lines.length));',
    '  return lines.reduce((a, b) => a + b, 0);',
    '}',
    '',
  ].join('\n'),
  'README.md': '# demo\n',
};

/** A larger generated repository: enough content to fill several thousand tokens of map. */
export function generatedRepo(fileCount: number): Record<string, string> {
  const files: Record<string, string> = {};
  const uses: string[] = [];
  for (let f = 0; f < fileCount; f++) {
    const cls = `Service${f}Manager`;
    const lines = [`export class ${cls} {`];
    for (let m = 0; m < 6; m++) {
      const method = `handle_request_${f}_${m}`;
      uses.push(`  new ${cls}().${method}(${m});`);
      lines.push(`  ${method}(input: number): number {`, `    return input * ${m + 1} + ${f};`, '  }', '');
    }
    lines.push('}', '');
    files[`pkg/module_${String(f).padStart(3, '0')}.ts`] = lines.join('\n');
  }
  files['pkg/main.ts'] = ['export function run(): void {', ...uses, '}', ''].join('\n');
  return files;
}
