// One conversation with a model: its history and prompt layout, and whether the session log records it.
// The chat's own conversation is recorded; the editor's one-off conversation after an architect plan is not.
import type { ChatMessage } from '../model/types.js';
import type { PromptLayout } from './prompt-layout.js';
import type { SessionRecorder } from './session-log.js';

export class Conversation {
  constructor(
    readonly history: ChatMessage[],
    private readonly layout: PromptLayout,
    /** null: a conversation the log does not keep. */
    private readonly recorder: SessionRecorder | null,
  ) {}

  /** The request is in the log before it is sent, so a crash during the reply still leaves it to resume. */
  logRequest(content: string): void {
    // With the message as the model gets it, so a resumed chat repeats this prompt byte for byte.
    const layout = this.recorder ? this.layout.pendingRecord(this.history) : null;
    this.recorder?.record({ type: 'message', role: 'user', content, ...(layout ? { layout } : {}) });
  }

  /** The exchange joins the history; the reply (the request was logged already) joins the log. */
  remember(user: string, assistant: string): void {
    this.history.push({ role: 'user', content: user }, { role: 'assistant', content: assistant });
    this.layout.replied(this.history, assistant);
    this.recorder?.record({ type: 'message', role: 'assistant', content: assistant });
  }

  /** Adds tandem's note to the last reply (what became of its edits), so the model reads it next time. */
  noteOnLastReply(note: string): void {
    const last = this.history.at(-1);
    if (last?.role !== 'assistant') return;
    const content = `${last.content}\n\n[tandem: ${note}]`;
    this.history[this.history.length - 1] = { ...last, content };
    this.layout.amendLastReply(this.history, content);
    this.recorder?.record({ type: 'amend', content });
  }
}
