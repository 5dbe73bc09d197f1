// A request's messages as Markdown a person pastes into a web chat (/copy-context, --copy-paste).

export interface MarkdownMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
  readonly images?: readonly { readonly name: string }[];
}

/** One section per message; images are named (a web chat takes them pasted by hand). */
export function renderContext(messages: readonly MarkdownMessage[]): string {
  const sections = messages.map((m) => {
    const images = (m.images ?? []).map((image) => `\n\n[image: ${image.name}]`).join('');
    return `## ${m.role === 'system' ? 'Instructions' : m.role === 'user' ? 'User' : 'Assistant'}\n\n${m.content}${images}`;
  });
  return `${sections.join('\n\n')}\n`;
}
