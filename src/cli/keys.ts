// Pure key handling for the times readline does not own the keyboard: a question answered with one
// key, and the line typed while the model works (kept out of readline so it cannot repaint the reply).

export interface Key {
  readonly name?: string;
  readonly ctrl?: boolean;
  readonly meta?: boolean;
  readonly sequence?: string;
}

/** What a single-key question accepts. `never` is "don't ask again" (no, now and later). */
export type Choice = 'yes' | 'no' | 'all' | 'never';

const CHOICE_KEYS: Readonly<Record<string, Choice>> = { y: 'yes', n: 'no', a: 'all', d: 'never' };

const CHOICE_LABELS: Readonly<Record<Choice, string>> = { yes: '(y)es', no: '(n)o', all: '(a)ll', never: "(d)on't ask again" };

/** `(y)es/(n)o/(a)ll [no] `: the keys a question takes, and what Enter means. */
export function choicesHint(choices: readonly Choice[], fallback: Choice): string {
  return `${choices.map((c) => CHOICE_LABELS[c]).join('/')} [${fallback}] `;
}

export type AnswerKey = { readonly kind: 'choice'; readonly choice: Choice } | { readonly kind: 'interrupt' } | { readonly kind: 'ignore' };

/** One key press during a question: a listed letter, Enter (the default), Ctrl-C / Ctrl-D (no). */
export function answerKey(text: string | undefined, key: Key | undefined, choices: readonly Choice[], fallback: Choice): AnswerKey {
  if (key?.ctrl && key.name === 'c') return { kind: 'interrupt' };
  if (key?.ctrl && key.name === 'd') return { kind: 'choice', choice: 'no' };
  if (key?.name === 'return' || key?.name === 'enter') return { kind: 'choice', choice: fallback };
  if (key?.ctrl || key?.meta) return { kind: 'ignore' };
  const choice = CHOICE_KEYS[(text ?? '').toLowerCase()];
  return choice && choices.includes(choice) ? { kind: 'choice', choice } : { kind: 'ignore' };
}

/** A word typed as the answer when there is no terminal to read single keys from. */
export function answerWord(line: string | null, choices: readonly Choice[], fallback: Choice): Choice {
  if (line === null) return 'no';
  const word = line.trim().toLowerCase();
  if (word === '') return fallback;
  const byWord: Record<string, Choice> = { yes: 'yes', no: 'no', all: 'all', never: 'never' };
  const choice = CHOICE_KEYS[word] ?? byWord[word];
  return choice && choices.includes(choice) ? choice : 'no';
}

export type TypedKey =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'line'; readonly text: string }
  | { readonly kind: 'interrupt'; readonly text: string }
  | { readonly kind: 'ignore'; readonly text: string };

/**
 * One key press typed while the model works, applied to the line typed so far. Only plain editing:
 * printable text, Backspace, Ctrl-U, Enter (a newline inside a paste), Ctrl-C.
 */
export function typeAhead(line: string, text: string | undefined, key: Key | undefined, pasting: boolean): TypedKey {
  if (key?.ctrl && key.name === 'c') return { kind: 'interrupt', text: line };
  if (key?.name === 'return' || key?.name === 'enter') return pasting ? { kind: 'text', text: `${line}\n` } : { kind: 'line', text: line };
  if (key?.name === 'backspace') return { kind: 'text', text: Array.from(line).slice(0, -1).join('') };
  if (key?.ctrl && key.name === 'u') return { kind: 'text', text: '' };
  if (key?.ctrl || key?.meta) return { kind: 'ignore', text: line };
  // Escape sequences (arrows, function keys) and other control characters are not text.
  if (!text || /[\u0000-\u001f\u007f]/.test(text)) return { kind: 'ignore', text: line };
  return { kind: 'text', text: line + text };
}
