// ANSI colours, or none: the terminal renderer picks a palette once.

/** Styles a piece of text for the terminal (an SGR attribute, or nothing). */
export type Paint = (s: string) => string;

export interface Palette {
  readonly red: Paint;
  readonly green: Paint;
  readonly yellow: Paint;
  readonly cyan: Paint;
  readonly dim: Paint;
  readonly bold: Paint;
}

/** Wraps text in one SGR attribute and its reset. */
export const sgr = (open: number | string, close: number | string) => (s: string): string => `\u001b[${open}m${s}\u001b[${close}m`;

export const ANSI: Palette = {
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  cyan: sgr(36, 39),
  dim: sgr(2, 22),
  bold: sgr(1, 22),
};

/** No styling. */
const same = (s: string): string => s;

export const PLAIN: Palette = { red: same, green: same, yellow: same, cyan: same, dim: same, bold: same };

export function colorDiff(diff: string, palette: Palette): string {
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return palette.bold(line);
      if (line.startsWith('+')) return palette.green(line);
      if (line.startsWith('-')) return palette.red(line);
      if (line.startsWith('@@')) return palette.cyan(line);
      return line;
    })
    .join('\n');
}
