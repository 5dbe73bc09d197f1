// Small syntax highlighter for fenced code in replies: keywords, strings, comments and numbers for the
// common languages, one line at a time (a block comment may carry over to the next line).
import { sgr } from './colors.js';

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

interface LanguageRules {
  readonly keywords: ReadonlySet<string>;
  readonly lineComment: readonly string[];
  readonly blockComment: readonly [string, string] | null;
  readonly quotes: string;
  readonly caseInsensitive?: boolean;
}

/** Whether a block comment is open at the end of the last highlighted line. */
export interface HighlightState {
  readonly inBlockComment: boolean;
}

export const START_STATE: HighlightState = { inBlockComment: false };

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter(Boolean));

const C_LIKE_BLOCK: readonly [string, string] = ['/*', '*/'];

const JS_KEYWORDS = words(`
  async await break case catch class const continue debugger default delete do else enum export extends
  false finally for from function if implements import in instanceof interface let new null of return
  static super switch this throw true try type typeof undefined var void while with yield readonly as
  keyof declare namespace abstract private protected public`);

const PYTHON_KEYWORDS = words(`
  and as assert async await break class continue def del elif else except False finally for from global
  if import in is lambda None nonlocal not or pass raise return True try while with yield match case self`);

const GO_KEYWORDS = words(`
  break case chan const continue default defer else fallthrough for func go goto if import interface map
  package range return select struct switch type var nil true false`);

const RUST_KEYWORDS = words(`
  as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod
  move mut pub ref return self Self static struct super trait true type unsafe use where while Some None Ok Err`);

const C_KEYWORDS = words(`
  auto break case char const continue default do double else enum extern float for goto if inline int long
  register return short signed sizeof static struct switch typedef union unsigned void volatile while
  bool true false nullptr class namespace template typename public private protected virtual new delete
  this throw try catch using include define`);

const JAVA_KEYWORDS = words(`
  abstract boolean break byte case catch char class const continue default do double else enum extends
  final finally float for if implements import instanceof int interface long native new null package
  private protected public return short static super switch synchronized this throw throws try void
  volatile while true false var val fun object when is in override data`);

const RUBY_KEYWORDS = words(`
  alias and begin break case class def defined do else elsif end ensure false for if in module next nil
  not or redo rescue retry return self super then true undef unless until when while yield require`);

const SHELL_KEYWORDS = words(`
  if then else elif fi for while until do done case esac in function return export local echo exit`);

const SQL_KEYWORDS = words(`
  select from where insert into values update set delete create table drop alter join left right inner
  outer on group by order having limit and or not null as primary key index distinct union`);

const RULES: Readonly<Record<string, LanguageRules>> = {
  js: { keywords: JS_KEYWORDS, lineComment: ['//'], blockComment: C_LIKE_BLOCK, quotes: `'"\`` },
  python: { keywords: PYTHON_KEYWORDS, lineComment: ['#'], blockComment: null, quotes: `'"` },
  go: { keywords: GO_KEYWORDS, lineComment: ['//'], blockComment: C_LIKE_BLOCK, quotes: `'"\`` },
  rust: { keywords: RUST_KEYWORDS, lineComment: ['//'], blockComment: C_LIKE_BLOCK, quotes: `"` },
  c: { keywords: C_KEYWORDS, lineComment: ['//'], blockComment: C_LIKE_BLOCK, quotes: `'"` },
  java: { keywords: JAVA_KEYWORDS, lineComment: ['//'], blockComment: C_LIKE_BLOCK, quotes: `'"` },
  ruby: { keywords: RUBY_KEYWORDS, lineComment: ['#'], blockComment: null, quotes: `'"` },
  shell: { keywords: SHELL_KEYWORDS, lineComment: ['#'], blockComment: null, quotes: `'"` },
  sql: { keywords: SQL_KEYWORDS, lineComment: ['--'], blockComment: C_LIKE_BLOCK, quotes: `'"`, caseInsensitive: true },
};

const ALIASES: Readonly<Record<string, string>> = {
  js: 'js', javascript: 'js', jsx: 'js', mjs: 'js', cjs: 'js', ts: 'js', typescript: 'js', tsx: 'js',
  py: 'python', python: 'python', python3: 'python',
  go: 'go', golang: 'go',
  rs: 'rust', rust: 'rust',
  c: 'c', h: 'c', cpp: 'c', 'c++': 'c', cc: 'c', hpp: 'c', cxx: 'c', cs: 'java', csharp: 'java',
  java: 'java', kotlin: 'java', kt: 'java', scala: 'java', swift: 'java',
  rb: 'ruby', ruby: 'ruby',
  sh: 'shell', bash: 'shell', zsh: 'shell', shell: 'shell', console: 'shell',
  sql: 'sql',
};

/** The rules for a fence's info string (`ts`, `python title="x"`), or null for unknown languages. */
function rulesFor(language: string): LanguageRules | null {
  const name = language.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  const key = ALIASES[name];
  return key ? (RULES[key] ?? null) : null;
}

export function isKnownLanguage(language: string): boolean {
  return rulesFor(language) !== null;
}

/** Highlights one line of code; unknown languages come back unchanged. */
export function highlightLine(
  line: string,
  language: string,
  style: CodeStyle,
  state: HighlightState = START_STATE,
): { text: string; state: HighlightState } {
  const rules = rulesFor(language);
  if (!rules) return { text: line, state: START_STATE };
  let out = '';
  let i = 0;
  if (state.inBlockComment && rules.blockComment) {
    const end = line.indexOf(rules.blockComment[1]);
    if (end < 0) return { text: style.comment(line), state: { inBlockComment: true } };
    i = end + rules.blockComment[1].length;
    out = style.comment(line.slice(0, i));
  }
  while (i < line.length) {
    const token = nextToken(line, i, rules);
    if (token.kind === 'open-block') {
      return { text: out + style.comment(line.slice(i)), state: { inBlockComment: true } };
    }
    const text = line.slice(i, token.end);
    out += token.kind === 'plain' ? text : style[token.kind](text);
    i = token.end;
  }
  return { text: out, state: START_STATE };
}

type TokenKind = 'plain' | 'keyword' | 'string' | 'comment' | 'number' | 'open-block';

function nextToken(line: string, start: number, rules: LanguageRules): { kind: TokenKind; end: number } {
  const rest = line.slice(start);
  if (rules.lineComment.some((marker) => rest.startsWith(marker))) return { kind: 'comment', end: line.length };
  if (rules.blockComment && rest.startsWith(rules.blockComment[0])) {
    const close = line.indexOf(rules.blockComment[1], start + rules.blockComment[0].length);
    if (close < 0) return { kind: 'open-block', end: line.length };
    return { kind: 'comment', end: close + rules.blockComment[1].length };
  }
  const ch = line[start] ?? '';
  if (rules.quotes.includes(ch)) return { kind: 'string', end: stringEnd(line, start, ch) };
  const word = /^[A-Za-z_$][\w$]*/.exec(rest);
  if (word) {
    const name = rules.caseInsensitive ? word[0].toLowerCase() : word[0];
    const kind = rules.keywords.has(name) ? 'keyword' : 'plain';
    return { kind, end: start + word[0].length };
  }
  const number = /^(0[xX][\da-fA-F_]+|\d[\d_]*(\.\d+)?([eE][+-]?\d+)?)/.exec(rest);
  if (number) return { kind: 'number', end: start + number[0].length };
  const plain = /^[^A-Za-z_$\d'"`#/\-]+/.exec(rest);
  return { kind: 'plain', end: start + (plain ? plain[0].length : 1) };
}

/** The end of a string literal that opens at `start`; an unterminated one runs to the end of the line. */
function stringEnd(line: string, start: number, quote: string): number {
  for (let i = start + 1; i < line.length; i++) {
    if (line[i] === '\\') {
      i++;
      continue;
    }
    if (line[i] === quote) return i + 1;
  }
  return line.length;
}
