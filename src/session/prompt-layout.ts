// The conversation part of a request, laid out so that each request repeats the previous one from
// its first token (what providers' prompt caches and local servers' KV caches reuse): every request
// appends to what was sent before. A chat file's full text is sent once, in the request that first
// needs it; later changes to it (applied edits, the user's own) follow as diffs from the copy the
// model has. The conversation is rebuilt (plain history, then every chat file's current text once)
// when the history is replaced (summary, /clear, resume), a file leaves the chat or becomes
// unreadable, or a file's diffs since its last full copy would outweigh the file itself.
import type { FileChange, FileText } from '../coders/messages.js';
import { unifiedDiff } from '../edits/unified-diff.js';
import type { ChatMessage } from '../model/types.js';

/** What the next request carries besides the stable prefix: earlier turns, then this turn's files. */
export interface LayoutTurn {
  /** Earlier turns exactly as they were sent (or the plain history after a rebuild). */
  readonly conversation: readonly ChatMessage[];
  /** Chat files the model has no copy of: sent whole in this request. */
  readonly fullFiles: readonly FileText[];
  /** Chat files changed since the model's copy: sent as diffs in this request. */
  readonly changes: readonly FileChange[];
  /** Whether this turn starts a new conversation (the previous request's prompt is not its prefix). */
  readonly rebuilt: boolean;
}

/**
 * What a sent turn adds to the layout, as the session log keeps it so a resumed chat goes on appending:
 * the request's message as sent, the copies of chat files the model received with it (whole or by diff),
 * and whether it started a new conversation.
 */
export interface LayoutRecord {
  readonly sent: string;
  readonly files: ReadonlyArray<{ readonly path: string; readonly text: string }>;
  readonly rebuilt: boolean;
}

/** A conversation as the model last saw it, put back from a session log. */
export interface RestoredLayout {
  /** Earlier turns exactly as they were sent, replies included. */
  readonly conversation: readonly ChatMessage[];
  /** The text of each chat file the model has a copy of. */
  readonly files: ReadonlyArray<{ readonly path: string; readonly text: string }>;
}

interface KnownFile {
  /** The text the model has, after every diff sent so far. */
  readonly text: string;
  /** Characters of diffs sent since the last full copy. */
  readonly diffChars: number;
}

interface State {
  readonly history: readonly ChatMessage[];
  /** history.length when the conversation was last extended. */
  readonly historyLength: number;
  readonly conversation: readonly ChatMessage[];
  readonly known: ReadonlyMap<string, KnownFile>;
}

interface Pending {
  readonly turn: LayoutTurn;
  readonly history: readonly ChatMessage[];
  readonly historyLength: number;
  readonly message: ChatMessage;
  readonly known: ReadonlyMap<string, KnownFile>;
}

export class PromptLayout {
  private state: State | null = null;
  private pending: Pending | null = null;
  /** What the model will know once a planned turn is sent. */
  private readonly planned = new WeakMap<LayoutTurn, ReadonlyMap<string, KnownFile>>();

  /** The next turn for `history` and the chat files' current texts. Changes nothing. */
  next(history: readonly ChatMessage[], files: readonly FileText[]): LayoutTurn {
    const { turn, known } = this.plan(history, files);
    this.planned.set(turn, known);
    return turn;
  }

  /** The turn from next() was sent as `message` (the request's last message); replied() records the answer. */
  sent(history: readonly ChatMessage[], turn: LayoutTurn, message: ChatMessage): void {
    const known = this.planned.get(turn);
    this.pending = known ? { turn, history, historyLength: history.length, message, known } : null;
  }

  /**
   * The turn last given to sent() for `history`, as the session log keeps it; null when there is none or
   * its message carries images (never logged: a resumed chat then starts a new conversation).
   */
  pendingRecord(history: readonly ChatMessage[]): LayoutRecord | null {
    const pending = this.pending;
    if (!pending || pending.history !== history || history.length !== pending.historyLength || pending.message.images?.length) return null;
    const { turn, known } = pending;
    const changed = turn.rebuilt ? [...known.keys()] : [...turn.fullFiles.map((f) => f.path), ...turn.changes.map((c) => c.path)];
    return { sent: pending.message.content, files: changed.map((path) => ({ path, text: known.get(path)!.text })), rebuilt: turn.rebuilt };
  }

  /** Continues a conversation a session log describes: the next turn appends to it as if it had never stopped. */
  restore(history: readonly ChatMessage[], restored: RestoredLayout): void {
    this.pending = null;
    this.state = {
      history,
      historyLength: history.length,
      conversation: [...restored.conversation],
      known: new Map(restored.files.map((f): [string, KnownFile] => [f.path, { text: f.text, diffChars: 0 }])),
    };
  }

  /**
   * The exchange just pushed onto `history` (user text, reply). When it answers the pending request
   * the conversation grows by exactly what was sent and the reply; anything else forces a rebuild.
   */
  replied(history: readonly ChatMessage[], assistant: string): void {
    const pending = this.pending;
    this.pending = null;
    if (!pending || pending.history !== history || history.length !== pending.historyLength + 2) {
      this.state = null;
      return;
    }
    this.state = {
      history,
      historyLength: history.length,
      conversation: [...pending.turn.conversation, pending.message, { role: 'assistant', content: assistant }],
      known: pending.known,
    };
  }

  /** tandem amended the last reply in `history` after the fact (a note that its edits did not land). */
  amendLastReply(history: readonly ChatMessage[], assistant: string): void {
    const state = this.state;
    if (!state || state.history !== history) return;
    if (state.conversation.at(-1)?.role !== 'assistant') {
      this.state = null;
      return;
    }
    this.state = { ...state, conversation: [...state.conversation.slice(0, -1), { role: 'assistant', content: assistant }] };
  }

  private plan(history: readonly ChatMessage[], files: readonly FileText[]): { turn: LayoutTurn; known: Map<string, KnownFile> } {
    const extended = this.extendable(history, files);
    if (!extended) return this.rebuild(history, files);
    const known = new Map(extended.known);
    const fullFiles: FileText[] = [];
    const changes: FileChange[] = [];
    for (const file of files) {
      const had = known.get(file.path);
      if (had === undefined) {
        fullFiles.push(file);
        known.set(file.path, { text: file.text, diffChars: 0 });
        continue;
      }
      if (had.text === file.text) continue;
      const diff = unifiedDiff(file.path, had.text, file.text);
      // Diffs that outweigh the file are harder to follow than the file: start over with full copies.
      if (had.diffChars + diff.length > file.text.length) return this.rebuild(history, files);
      changes.push({ path: file.path, diff });
      known.set(file.path, { text: file.text, diffChars: had.diffChars + diff.length });
    }
    return { turn: { conversation: extended.conversation, fullFiles, changes, rebuilt: false }, known };
  }

  /** The current state when the next turn may simply append to it. */
  private extendable(history: readonly ChatMessage[], files: readonly FileText[]): State | null {
    const state = this.state;
    if (!state || state.history !== history || state.historyLength !== history.length) return null;
    const present = new Set(files.map((f) => f.path));
    // A copy of a file that left the chat (or can no longer be read) must not linger in the prompt.
    for (const path of state.known.keys()) if (!present.has(path)) return null;
    return state;
  }

  private rebuild(history: readonly ChatMessage[], files: readonly FileText[]): { turn: LayoutTurn; known: Map<string, KnownFile> } {
    const known = new Map(files.map((f): [string, KnownFile] => [f.path, { text: f.text, diffChars: 0 }]));
    return { turn: { conversation: [...history], fullFiles: [...files], changes: [], rebuilt: true }, known };
  }
}
