// The bench report: what `npm run bench` prints as a table and writes to .bench-cache/bench.json.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatNumber, type BenchRow, type SectionResult } from './measure.js';

export interface BenchReport {
  readonly node: string;
  readonly platform: string;
  readonly cpus: number;
  readonly quick: boolean;
  readonly startedAt: string;
  readonly seconds: number;
  readonly sections: SectionResult[];
}

/** A table column: its title and width; `right` for numbers, which read best right-aligned. */
export interface Column {
  readonly title: string;
  readonly width: number;
  readonly right?: boolean;
}

const COLUMNS: readonly Column[] = [
  { title: 'section', width: 9 },
  { title: 'metric', width: 64 },
  { title: 'value', width: 12, right: true },
  { title: 'reference', width: 26 },
  { title: 'ratio', width: 8, right: true },
  { title: 'target', width: 24 },
];

function cells(section: string, row: BenchRow): string[] {
  const reference = row.reference ? `${row.reference.label}: ${formatNumber(row.reference.value)}` : '';
  const ratio = row.ratio === undefined ? '' : `${formatNumber(row.ratio)}x`;
  const verdict = row.ok === undefined ? '' : row.ok ? ' ok' : ' MISSED';
  return [section, row.metric, `${formatNumber(row.value)} ${row.unit}`, reference, ratio, `${row.target ?? ''}${verdict}`];
}

/** One line of a table: each value padded to its column's width (values past the last column as they are). */
export function tableLine(columns: readonly Column[], values: readonly string[]): string {
  return values
    .map((value, i) => {
      const column = columns[i];
      if (column === undefined) return value;
      return column.right ? value.padStart(column.width) : value.padEnd(column.width);
    })
    .join('  ')
    .trimEnd();
}

const line = (values: readonly string[]): string => tableLine(COLUMNS, values);

export function formatTable(report: BenchReport): string {
  const out = [
    `tandem bench${report.quick ? ' (quick)' : ''}: node ${report.node}, ${report.platform}, ${report.cpus} cpus, ${report.seconds.toFixed(0)} s`,
    line(COLUMNS.map((c) => c.title)),
    line(COLUMNS.map((c) => '-'.repeat(Math.min(c.width, 64)))),
  ];
  for (const section of report.sections) {
    if (section.error !== undefined) out.push(line([section.name, `FAILED: ${section.error}`, '', '', '', '']));
    for (const row of section.rows) out.push(line(cells(section.name, row)));
  }
  const notes = report.sections.flatMap((s) => s.notes.map((note) => `  ${s.name}: ${note}`));
  if (notes.length > 0) out.push('', 'notes:', ...notes);
  return out.join('\n');
}

/** Writes `report` as JSON to `<cacheDir>/<name>` (bench.json; the before/after mode adds bench-ab.json). */
export async function writeReport(cacheDir: string, report: unknown, name = 'bench.json'): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const file = path.join(cacheDir, name);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
