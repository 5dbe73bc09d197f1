// Syntax highlighting for fenced code in replies, on cli-highlight (highlight.js grammars) with our own
// colours. A fence streams line by line: the block so far is highlighted again and its last line shown,
// so a string or comment opened on an earlier line keeps its colour.
import { createRequire } from 'node:module';
import type { Theme } from 'cli-highlight';
import { sgr } from './colors.js';

type CliHighlight = typeof import('cli-highlight');
let loaded: CliHighlight | undefined;
/**
 * Loaded on the first code block, not at start-up: highlight.js registers every grammar when loaded
 * (tens of ms), which a `--json` run or a reply without code never needs. Rendering streams line by
 * line and is synchronous, hence `require` rather than `import()`.
 */
function cliHighlight(): CliHighlight {
  loaded ??= createRequire(import.meta.url)('cli-highlight') as CliHighlight;
  return loaded;
}

export interface CodeStyle {
  readonly keyword: (s: string) => string;
  readonly string: (s: string) => string;
  readonly comment: (s: string) => string;
  readonly number: (s: string) => string;
}

export const ANSI_CODE_STYLE: CodeStyle = {
  keyword: sgr('35', '39'),
  string: sgr('32', '39'),
  comment: sgr('90', '39'),
  number: sgr('33', '39'),
};


/** Common fence names highlight.js knows under another name. */
const ALIASES: Readonly<Record<string, string>> = { py: 'python', ts: 'typescript', js: 'javascript', sh: 'bash', shell: 'bash', rs: 'rust', golang: 'go' };

function languageName(fenceInfo: string): string {
  const word = (fenceInfo.trim().split(/\s+/)[0] ?? '').toLowerCase();
  return ALIASES[word] ?? word;
}

export function isKnownLanguage(language: string): boolean {
  const name = languageName(language);
  return name !== '' && cliHighlight().supportsLanguage(name);
}

/** Colours a token line by line, so splitting the result on newlines keeps every line's colour whole. */
const perLine = (style: (s: string) => string) => (s: string): string => s.split('\n').map((line) => (line === '' ? line : style(line))).join('\n');

function themeFor(style: CodeStyle): Theme {
  const keyword = perLine(style.keyword);
  const string = perLine(style.string);
  const comment = perLine(style.comment);
  const number = perLine(style.number);
  return { keyword, built_in: keyword, literal: number, number, string, regexp: string, comment, quote: comment, doctag: comment, meta: comment };
}

/** Highlights a whole block of code; unknown languages come back unchanged. */
export function highlightCode(code: string, language: string, style: CodeStyle): string {
  if (!isKnownLanguage(language)) return code;
  try {
    return cliHighlight().highlight(code, { language: languageName(language), ignoreIllegals: true, theme: themeFor(style) });
  } catch {
    return code;
  }
}

/** The last line of `lines` highlighted in the context of the lines before it. */
export function highlightLastLine(lines: readonly string[], language: string, style: CodeStyle): string {
  const all = highlightCode(lines.join('\n'), language, style).split('\n');
  return all[all.length - 1] ?? '';
}
