// Who hears a key press on the terminal: readline while its prompt is shown, a pending question (one
// key answers it), or else the line being typed ahead while the model works, which becomes a queued
// line on Enter. Type-ahead therefore never reaches a question.
import { answerKey, typeAhead, type Choice, type Key } from './keys.js';

export interface KeyRouterDeps {
  /** Whether readline's prompt is up (it then gets every key). */
  readonly prompting: () => boolean;
  /** readline's own key listeners, taken off stdin. */
  readonly readlineKeys: ReadonlyArray<(...args: unknown[]) => void>;
  /** A line typed ahead, finished with Enter. */
  readonly typedLine: (line: string) => void;
  readonly interrupt: () => void;
  /** Echoes the chosen answer after the question. */
  readonly write: (text: string) => void;
  /** Enter (or Meta-Enter: `meta`) pressed at the prompt, just before readline ends the line. */
  readonly enter?: (meta: boolean) => void;
}

export interface KeyRouter {
  onKey(text: string | undefined, key: Key | undefined): void;
  /** Waits for one key answering a question that is already on screen. */
  answer(choices: readonly Choice[], fallback: Choice): Promise<Choice>;
  /** Ends a pending question with no (the input closed). */
  cancel(): void;
  /** The half-typed line, taken (for the next prompt) or dropped. */
  takeTyping(): string;
  readonly pasting: boolean;
}

export function createKeyRouter(deps: KeyRouterDeps): KeyRouter {
  let pasting = false;
  let typing = '';
  let asking: { readonly choices: readonly Choice[]; readonly fallback: Choice; readonly resolve: (choice: Choice) => void } | null = null;

  const onAnswerKey = (text: string | undefined, key: Key | undefined): void => {
    if (!asking) return;
    const answer = answerKey(text, key, asking.choices, asking.fallback);
    if (answer.kind === 'ignore') return;
    const { resolve } = asking;
    asking = null;
    const choice = answer.kind === 'choice' ? answer.choice : 'no';
    deps.write(`${choice}\n`);
    resolve(choice);
    if (answer.kind === 'interrupt') deps.interrupt();
  };

  return {
    onKey(text, key) {
      if (key?.name === 'paste-start') pasting = true;
      if (key?.name === 'paste-end') pasting = false;
      if (asking) return onAnswerKey(text, key);
      if (deps.prompting()) {
        const enter = !pasting && (key?.name === 'return' || key?.name === 'enter');
        if (enter) deps.enter?.(key?.meta === true);
        // readline ignores Meta-Enter: it ends the line like Enter (multi-line mode tells them apart).
        const forwarded = enter && key?.meta ? { ...key, meta: false } : key;
        for (const listener of deps.readlineKeys) listener(enter && key?.meta ? '\r' : text, forwarded);
        return;
      }
      const typed = typeAhead(typing, text, key, pasting);
      typing = typed.kind === 'line' ? '' : typed.text;
      if (typed.kind === 'interrupt') deps.interrupt();
      if (typed.kind === 'line' && typed.text.trim() !== '') deps.typedLine(typed.text);
    },
    answer(choices, fallback) {
      return new Promise<Choice>((resolve) => {
        asking = { choices, fallback, resolve };
      });
    },
    cancel() {
      asking?.resolve('no');
      asking = null;
    },
    takeTyping() {
      const taken = typing;
      typing = '';
      return taken;
    },
    get pasting() {
      return pasting;
    },
  };
}
