// Reasoning written into the content: a leading <think>…</think> (also <thinking>, <reasoning>), as
// DeepSeek-R1, Qwen3 and QwQ write it through servers without a reasoning parser. The splitter sees the
// content delta by delta and hands each piece on as reasoning or as answer text, holding back only the
// few characters that could still turn out to be a tag.

export interface ContentPiece {
  readonly reasoning: string;
  readonly text: string;
}

export interface ThinkSplitter {
  push(delta: string): ContentPiece;
  /** The rest once the content is complete; `unclosed` when it ended inside the reasoning. */
  end(): ContentPiece & { readonly unclosed: boolean };
}

const TAG_NAMES = ['think', 'thinking', 'reasoning'] as const;
const DEFAULT_OPEN_TAGS = TAG_NAMES.map((name) => `<${name}>`);
const NOTHING: ContentPiece = { reasoning: '', text: '' };

type State =
  | { readonly kind: 'start' }
  | { readonly kind: 'inside'; readonly close: string }
  | { readonly kind: 'after'; readonly skippingBlank: boolean }
  | { readonly kind: 'plain' };

/** `extraTag`: the tag a model's settings name (`reasoning_tag`), recognised besides the usual ones. */
export function createThinkSplitter(extraTag: string | null = null): ThinkSplitter {
  const tag = extraTag?.trim().toLowerCase().replace(/^<\/?|>$/g, '') ?? '';
  const OPEN_TAGS = /^[a-z][a-z0-9_-]*$/.test(tag) && !DEFAULT_OPEN_TAGS.includes(`<${tag}>`) ? [...DEFAULT_OPEN_TAGS, `<${tag}>`] : DEFAULT_OPEN_TAGS;
  let state: State = { kind: 'start' };
  let held = '';

  const feed = (input: string): ContentPiece => {
    if (state.kind === 'plain') return { reasoning: '', text: input };
    if (state.kind === 'after') return { reasoning: '', text: afterClose(input) };
    held += input;
    if (state.kind === 'start') return fromStart();
    return fromInside(state.close);
  };

  const fromStart = (): ContentPiece => {
    const lead = held.trimStart();
    const lower = lead.toLowerCase();
    const open = OPEN_TAGS.find((tag) => lower.startsWith(tag));
    if (open) {
      const rest = lead.slice(open.length);
      held = '';
      state = { kind: 'inside', close: `</${open.slice(1)}` };
      return feed(rest);
    }
    // "<thi" may still become a tag; anything else is an ordinary answer.
    if (lead === '' || OPEN_TAGS.some((tag) => tag.startsWith(lower))) return NOTHING;
    const text = held;
    held = '';
    state = { kind: 'plain' };
    return { reasoning: '', text };
  };

  const fromInside = (close: string): ContentPiece => {
    const at = held.toLowerCase().indexOf(close);
    if (at >= 0) {
      const reasoning = held.slice(0, at);
      const rest = held.slice(at + close.length);
      held = '';
      state = { kind: 'after', skippingBlank: true };
      return { reasoning, text: afterClose(rest) };
    }
    const keep = partialSuffix(held.toLowerCase(), close);
    const reasoning = held.slice(0, held.length - keep);
    held = held.slice(held.length - keep);
    return { reasoning, text: '' };
  };

  // The blank lines between the reasoning and the answer belong to neither.
  const afterClose = (input: string): string => {
    if (state.kind !== 'after' || !state.skippingBlank) return input;
    const text = input.trimStart();
    if (text !== '') state = { kind: 'after', skippingBlank: false };
    return text;
  };

  return {
    push: feed,
    end() {
      const rest = held;
      held = '';
      if (state.kind === 'inside') return { reasoning: rest, text: '', unclosed: true };
      return { reasoning: '', text: rest, unclosed: false };
    },
  };
}

/**
 * Reasoning whose opening tag the server's chat template already wrote into the prompt (DeepSeek-R1 and
 * Qwen3 templates do): the content then starts with the reasoning and a `</think>` line ends it. Only a
 * close tag on its own line, with no opening tag before it, counts; the text after it is the answer.
 */
export function splitOrphanClose(content: string): ContentPiece | null {
  const match = /^[ \t]*<\/think>[ \t]*$/im.exec(content);
  if (!match) return null;
  const before = content.slice(0, match.index);
  if (/<think>/i.test(before)) return null;
  return { reasoning: before, text: content.slice(match.index + match[0].length).trimStart() };
}

/** How many trailing characters of `text` are the start of `tag` (kept back until the next delta). */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}

/** An assistant message without its leading reasoning (for histories written before it was kept apart). */
export function withoutReasoning(content: string): string {
  const splitter = createThinkSplitter();
  const first = splitter.push(content);
  const rest = splitter.end();
  if (first.reasoning === '' && rest.reasoning === '') return splitOrphanClose(content)?.text ?? content;
  return first.text + rest.text;
}
