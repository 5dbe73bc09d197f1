// The built-in syntax check: parse an edited file with tree-sitter and report the ERROR and MISSING
// nodes the edit introduced. Errors already in the file before the edit are not reported: the old
// grammars flag some valid code, and repeating those would send the model chasing false alarms.
import type { Node } from 'web-tree-sitter';
import type { GrammarLoader, LanguageId } from '../platform/tree-sitter.js';

export interface SyntaxProblem {
  /** 1-based line where the problem starts. */
  readonly line: number;
  /** 1-based line where an ERROR region ends (same as `line` for MISSING). */
  readonly endLine: number;
  readonly kind: 'error' | 'missing';
  /** For MISSING: the node type the parser expected (e.g. ")"). */
  readonly expected?: string;
}

export interface SyntaxCheckResult {
  /** null when no grammar covers the file: nothing was checked. */
  readonly language: LanguageId | null;
  /** Problems the edit introduced, in file order. */
  readonly problems: SyntaxProblem[];
}

/** Every outermost ERROR node and every MISSING node, in file order, one per line and kind. */
function collectSyntaxProblems(root: Node): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const seen = new Set<string>();
  const add = (problem: SyntaxProblem): void => {
    const key = `${problem.kind}:${problem.line}:${problem.expected ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    problems.push(problem);
  };
  const visit = (node: Node, insideError: boolean): void => {
    if (node.isMissing) {
      const line = node.startPosition.row + 1;
      add({ line, endLine: line, kind: 'missing', expected: node.type });
    } else if (node.isError && !insideError) {
      add({ line: node.startPosition.row + 1, endLine: node.endPosition.row + 1, kind: 'error' });
    }
    if (!node.hasError) return;
    for (const child of node.children) if (child) visit(child, insideError || node.isError);
  };
  visit(root, false);
  return problems;
}

// A problem is "the same" before and after an edit when it is of the same kind on a line with the
// same text, wherever that line moved to.
function problemKey(problem: SyntaxProblem, lines: readonly string[]): string {
  return `${problem.kind}:${problem.expected ?? ''}:${(lines[problem.line - 1] ?? '').trim()}`;
}

/** The problems of `after` that `before` did not already have (counted, so duplicates still show). */
function newProblems(
  before: readonly SyntaxProblem[],
  beforeText: string,
  after: readonly SyntaxProblem[],
  afterText: string,
): SyntaxProblem[] {
  const beforeLines = beforeText.split(/\r?\n/);
  const afterLines = afterText.split(/\r?\n/);
  const available = new Map<string, number>();
  for (const problem of before) {
    const key = problemKey(problem, beforeLines);
    available.set(key, (available.get(key) ?? 0) + 1);
  }
  return after.filter((problem) => {
    const key = problemKey(problem, afterLines);
    const left = available.get(key) ?? 0;
    if (left === 0) return true;
    available.set(key, left - 1);
    return false;
  });
}

async function problemsOf(loader: GrammarLoader, language: LanguageId, text: string): Promise<SyntaxProblem[]> {
  const parser = await loader.parser(language);
  const tree = parser.parse(text);
  if (!tree) return [];
  try {
    return collectSyntaxProblems(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/**
 * Checks `after` (the new text of `path`) against `before` (its text before the edit, null for a new
 * file). Files no grammar covers are not checked. A grammar that fails to load rejects (GrammarError).
 */
export async function checkSyntax(
  loader: GrammarLoader,
  path: string,
  before: string | null,
  after: string,
): Promise<SyntaxCheckResult> {
  const language = loader.languageForPath(path);
  if (language === null) return { language, problems: [] };
  const afterProblems = await problemsOf(loader, language, after);
  if (afterProblems.length === 0 || before === null) return { language, problems: afterProblems };
  const beforeProblems = await problemsOf(loader, language, before);
  return { language, problems: newProblems(beforeProblems, before, afterProblems, after) };
}

/** One line per problem, for the model: "path:12: syntax error" / "path:3: missing ')'". */
export function describeSyntaxProblems(path: string, problems: readonly SyntaxProblem[]): string {
  return problems
    .map((problem) =>
      problem.kind === 'missing'
        ? `${path}:${problem.line}: syntax error: missing ${JSON.stringify(problem.expected ?? '')}`
        : `${path}:${problem.line}: syntax error` + (problem.endLine > problem.line ? ` (through line ${problem.endLine})` : ''),
    )
    .join('\n');
}
