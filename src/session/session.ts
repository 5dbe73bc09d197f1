// The chat: files, history and modes, and one user request carried through its rounds of reflection.
// It emits events and records the log; it never prints. Model failures arrive as values.
import { join } from 'node:path';
import type { Coder, CoderFormat } from '../coders/base-coder.js';
import { runCheckRound } from '../coders/check-round.js';
import { writeCommitMessage } from '../coders/commit-message.js';
import { describeEditProblems, runEditRound } from '../coders/edit-round.js';
import type { BuiltMessages, FileText } from '../coders/messages.js';
import { buildMessages } from '../coders/messages.js';
import type { RequestPorts } from '../coders/ports.js';
import type { PromptSet } from '../coders/prompt-set.js';
import type { FailureKind } from '../coders/reflection.js';
import { decideReflection, needsFixApproval } from '../coders/reflection.js';
import { offerShellCommands } from '../coders/shell-offer.js';
import { buildModelProfile, type ModelProfile } from '../model/model-profile.js';
import { withoutReasoning } from '../model/think-tags.js';
import type { ChatMessage, ChatResult } from '../model/types.js';
import { readConfinedText } from '../platform/text-files.js';
import { checkContextWindow } from './context-window.js';
import { ModelProfiles, type ModelRole } from './model-profiles.js';
import { offerFilesTheReplyNeeds, offerMentionedFiles, offerUnseenFiles, type FileOfferDeps } from './file-offers.js';
import { PromptLayout } from './prompt-layout.js';
import type { EmitEvent, ResultStatus, Totals } from './events.js';
import type { SessionRecorder } from './session-log.js';
import { summarizeHistory } from './summarize.js';
import { SessionTotals } from './totals.js';

export type ChatMode = 'code' | 'ask' | 'architect';
export type { ModelRole } from './model-profiles.js';

export interface SessionOptions {
  readonly root: string;
  readonly models: Record<ModelRole, string>;
  readonly editFormat: CoderFormat;
  readonly editorFormat: CoderFormat;
  readonly mode: ChatMode;
  readonly stream: boolean;
  readonly dryRun: boolean;
  readonly autoCommits: boolean;
  readonly dirtyCommits: boolean;
  readonly autoLint: boolean;
  readonly autoTest: boolean;
  readonly testCommand: string;
  readonly maxReflections: number;
  readonly mapTokens: number;
  /** null: the main model's default budget. */
  readonly maxHistoryTokens: number | null;
  /** For sessions built without model profiles: the window and placement every model gets. */
  readonly contextWindow: number;
  readonly reminderPlacement: 'system' | 'user';
  /** The user picked the formats, so switching models keeps them. */
  readonly editFormatChosen?: boolean;
  readonly editorFormatChosen?: boolean;
  /** git's hooks folder relative to the root (core.hooksPath), whose files only a person may edit. */
  readonly hooksDir?: string | null;
}

export interface LoadedCoder {
  readonly coder: Coder;
  readonly prompts: PromptSet;
}

/** Loads (and caches) the coder of an edit format, or the architect's planner. */
export type CoderLoader = (kind: CoderFormat | 'architect') => Promise<LoadedCoder>;

export interface SessionTexts {
  readonly summarize: string;
  readonly summaryTemplate: string;
  readonly editorRequest: string;
}

export interface SessionDeps {
  readonly ports: RequestPorts;
  readonly emit: EmitEvent;
  readonly loadCoder: CoderLoader;
  readonly recorder: SessionRecorder | null;
  readonly texts: SessionTexts;
  /** The models' whole profiles; default: fixed ones made of the options' window and placement. */
  readonly profiles?: ModelProfiles;
}

export interface RequestOutcome {
  readonly status: ResultStatus;
  readonly message?: string;
}

export interface ReadOnlyFile {
  /** Shown to the model under this name (repo-relative when inside the repository). */
  readonly name: string;
  readonly absolutePath: string;
}

/** Repository instructions (AGENTS.md) already read and cut to size. */
export interface Instruction {
  readonly name: string;
  readonly text: string;
}

interface Profile {
  readonly loaded: LoadedCoder;
  readonly role: ModelRole;
  readonly history: ChatMessage[];
  /** Whether this conversation is the session's own (recorded in the log). */
  readonly main: boolean;
}

export class Session {
  readonly chatFiles: string[] = [];
  readonly readOnlyFiles: ReadOnlyFile[] = [];
  readonly instructions: Instruction[] = [];
  history: ChatMessage[] = [];
  readonly totals = new SessionTotals();
  mode: ChatMode;
  readonly profiles: ModelProfiles;
  editFormat: CoderFormat;
  editorFormat: CoderFormat;
  /** HEAD when the last request started, for /diff (null: no commit yet; undefined: no request yet). */
  lastRequestStartHash: string | null | undefined = undefined;
  /** Text tandem wrote but could not commit, by path (see EditRoundOptions.uncommittedByTandem). */
  private readonly uncommittedByTandem = new Map<string, string>();
  /** Files the user said no to (adding, editing) in this chat: not offered again. */
  private readonly declinedFiles = new Set<string>();
  /** One append-only prompt layout per conversation (a replaced history array starts a new one). */
  private readonly layouts = new WeakMap<readonly ChatMessage[], PromptLayout>();

  constructor(
    readonly options: SessionOptions,
    private readonly deps: SessionDeps,
  ) {
    this.mode = options.mode;
    this.editFormat = options.editFormat;
    this.editorFormat = options.editorFormat;
    this.profiles = deps.profiles ?? fixedProfiles(options, deps.ports);
  }

  get models(): Record<ModelRole, string> {
    return this.profiles.names();
  }

  private get emit(): EmitEvent {
    return this.deps.emit;
  }

  private get ports(): RequestPorts {
    return this.deps.ports;
  }

  announce(): void {
    const format = this.mode === 'code' ? this.editFormat : this.mode;
    this.emit({ type: 'session', model: this.models.main, editFormat: format, files: [...this.chatFiles], readOnly: this.readOnlyFiles.map((f) => f.name) });
  }

  setMode(mode: ChatMode): void {
    this.mode = mode;
  }

  /** Swaps the whole profile of `role` (and of the models that follow it); returns the roles changed. */
  async setModel(role: ModelRole, name: string, by = `/${role === 'main' ? 'model' : `${role}-model`} in this chat`): Promise<ModelRole[]> {
    const changed = this.profiles.set(role, name, by);
    if (changed.includes('main') && !this.options.editFormatChosen) this.editFormat = this.profiles.get('main').editFormat;
    if (changed.includes('editor') && !this.options.editorFormatChosen) this.editorFormat = this.profiles.get('editor').editFormat;
    return changed;
  }

  addChatFile(path: string): boolean {
    if (this.chatFiles.includes(path)) return false;
    this.chatFiles.push(path);
    this.recordFiles();
    return true;
  }

  dropChatFile(path: string): boolean {
    const index = this.chatFiles.indexOf(path);
    if (index < 0) return false;
    this.chatFiles.splice(index, 1);
    this.recordFiles();
    return true;
  }

  dropAllChatFiles(): number {
    const count = this.chatFiles.splice(0).length;
    this.recordFiles();
    return count;
  }

  addReadOnlyFile(file: ReadOnlyFile): boolean {
    if (this.readOnlyFiles.some((f) => f.absolutePath === file.absolutePath)) return false;
    this.readOnlyFiles.push(file);
    this.recordFiles();
    return true;
  }

  /** Takes a read-only file out of the chat, by its name or absolute path. */
  dropReadOnlyFile(name: string): boolean {
    const index = this.readOnlyFiles.findIndex((f) => f.name === name || f.absolutePath === name);
    if (index < 0) return false;
    this.readOnlyFiles.splice(index, 1);
    this.recordFiles();
    return true;
  }

  dropAllReadOnlyFiles(): number {
    const count = this.readOnlyFiles.splice(0).length;
    this.recordFiles();
    return count;
  }

  /** A note for the model's history that is not a request (what /undo reverted, /run output). */
  addNote(user: string, assistant: string): void {
    this.remember(this.history, user, assistant, true);
  }

  clearHistory(): void {
    this.history = [];
    this.deps.recorder?.record({ type: 'clear' });
  }

  /** Puts back a chat read from a session log (nothing is recorded again). */
  restore(history: readonly ChatMessage[], chatFiles: readonly string[]): void {
    // A log written before reasoning was kept apart may still hold it: it is never sent back.
    this.history = history.map((m) => (m.role === 'assistant' ? { ...m, content: withoutReasoning(m.content) } : m));
    this.chatFiles.splice(0, this.chatFiles.length, ...chatFiles);
  }

  /** One user request and its reflections, in the session's mode or a one-off `mode`. */
  async runRequest(text: string, signal?: AbortSignal, options: { mode?: ChatMode } = {}): Promise<RequestOutcome> {
    const mode = options.mode ?? this.mode;
    this.emit({ type: 'user', text, mode });
    try {
      await offerMentionedFiles(text, this.fileOffers);
      const loaded = await this.deps.loadCoder(this.coderKindFor(mode));
      await this.summarizeIfLong(loaded.prompts.context.ack);
      if (mode === 'architect') return await this.runArchitect(text, signal, loaded);
      return await this.runLoop(text, signal, { loaded, role: 'main', history: this.history, main: true });
    } catch (error) {
      return this.endWithError(error, null);
    }
  }

  /** The messages the next request would carry, with their named parts. `sending`: this request goes out. */
  async buildRequest(request: string, loaded?: LoadedCoder, history: readonly ChatMessage[] = this.history, sending = false): Promise<BuiltMessages> {
    const coder = loaded ?? (await this.deps.loadCoder(this.coderKindFor(this.mode)));
    const [chatFiles, readOnlyFiles] = await Promise.all([this.readChatFiles(), this.readReadOnlyFiles()]);
    const { map, mentioned } = await this.repoMap(request);
    const layout = this.layoutOf(history);
    const turn = layout.next(history, chatFiles);
    const built = buildMessages({
      format: coder.prompts.format,
      context: coder.prompts.context,
      readOnlyFiles: [...this.instructions.map((i) => ({ path: i.name, text: i.text })), ...readOnlyFiles],
      repoMap: map,
      conversation: turn.conversation,
      turn: { text: request, fullFiles: turn.fullFiles, changes: turn.changes, mentioned, noChatFiles: chatFiles.length === 0 },
      reminderPlacement: this.profiles.get('main').reminder,
    });
    if (sending) layout.sent(history, turn, built.messages[built.messages.length - 1]!);
    return built;
  }

  resultTotals(): Totals {
    return this.totals.snapshot();
  }

  /** The coder a mode talks through: the edit format's, ask's, or the architect's planner. */
  private coderKindFor(mode: ChatMode): CoderFormat | 'architect' {
    return mode === 'code' ? this.editFormat : mode;
  }

  private async runArchitect(text: string, signal: AbortSignal | undefined, planner: LoadedCoder): Promise<RequestOutcome> {
    const built = await this.buildRequest(text, planner, this.history, true);
    this.logUserMessage(text, true);
    const plan = await this.send(built, this.models.main, signal);
    if (!plan.ok) return this.failedReply(text, plan, this.history, true);
    this.remember(this.history, text, plan.text, true);
    const editor = await this.deps.loadCoder(this.editorFormat);
    const request = this.deps.texts.editorRequest.replace('{plan}', () => plan.text);
    return this.runLoop(request, signal, { loaded: editor, role: 'editor', history: [], main: false });
  }

  private async runLoop(text: string, signal: AbortSignal | undefined, profile: Profile): Promise<RequestOutcome> {
    let message = text;
    for (let used = 0; ; used++) {
      const built = await this.buildRequest(message, profile.loaded, profile.history, true);
      const model = this.profiles.get(profile.role);
      const room = checkContextWindow(built, model.contextWindow, model.tokens);
      if (room) {
        const answer = await this.ports.asker.confirm(room, 'oversized-request');
        if (answer === 'unanswerable') return { status: 'approval_required', message: room };
        if (answer === 'no') return { status: 'completed', message: 'Request not sent.' };
      }
      this.logUserMessage(message, profile.main);
      const reply = await this.send(built, model.name, signal);
      if (!reply.ok) return this.failedReply(message, reply, profile.history, profile.main);
      this.remember(profile.history, message, reply.text, profile.main);
      if (!profile.loaded.coder.makesEdits) return { status: 'completed' };
      const added = await offerFilesTheReplyNeeds(reply.text, profile.loaded.coder, this.fileOffers);
      if (added.length > 0 && used < this.options.maxReflections) {
        this.totals.reflections++;
        this.emit({ type: 'reflection', n: used + 1, reason: 'files added' });
        message = profile.loaded.prompts.reflection.addedFiles.replace('{files}', () => added.join(', '));
        continue;
      }

      const round = await this.applyReply(reply.text, profile.loaded, signal);
      if (round.stop) return round.stop;
      // No means no: a declined edit or file is not a failure to retry; the request ends here.
      if (round.declined) return { status: 'completed' };
      const decision = decideReflection(round.failures, used, this.options.maxReflections);
      if (decision.action === 'done') return { status: 'completed' };
      if (decision.action === 'limit') {
        const note = `Stopped after ${this.options.maxReflections} reflections; still failing: ${decision.reason}.`;
        this.emit({ type: 'error', message: note });
        return { status: 'reflection_limit', message: note };
      }
      if (needsFixApproval(round.failures.kinds)) {
        const answer = await this.ports.asker.confirm(`Ask the model to fix the ${decision.reason} failures?`, 'fix-failures');
        if (answer === 'unanswerable') return { status: 'approval_required', message: 'Fixing the failures needed approval.' };
        if (answer === 'no') return { status: 'completed' };
      }
      this.totals.reflections++;
      this.emit({ type: 'reflection', n: used + 1, reason: decision.reason });
      message = decision.message;
    }
  }

  private async send(built: BuiltMessages, model: string, signal?: AbortSignal): Promise<ChatResult> {
    this.emit({ type: 'waiting' });
    this.totals.requests++;
    const result = await this.ports.model.chat({
      model,
      messages: built.messages,
      stream: this.options.stream,
      signal,
      onText: (delta) => this.emit({ type: 'assistant_delta', text: delta }),
      onReasoning: (delta) => this.emit({ type: 'reasoning_delta', text: delta }),
      stablePrefix: stablePrefixOf(built),
    });
    if (result.usage) {
      this.totals.addUsage(result.usage);
      this.emit({ type: 'usage', ...result.usage, sessionCost: this.totals.cost });
    }
    if (result.ok && result.reasoning) this.emit({ type: 'reasoning', text: result.reasoning });
    if (result.ok) this.emit({ type: 'assistant', text: result.text, interrupted: false });
    if (result.ok && result.reasoning && result.text.trim() === '') {
      this.emit({ type: 'warning', message: 'The reply ended inside its reasoning, before any answer: nothing from it was applied.' });
    }
    return result;
  }

  private failedReply(message: string, reply: Extract<ChatResult, { ok: false }>, history: ChatMessage[], main: boolean): RequestOutcome {
    const partial = reply.partialText;
    if (reply.error.kind === 'aborted') {
      this.emit({ type: 'assistant', text: partial, interrupted: true });
      this.remember(history, message, `${partial}${partial ? '\n\n' : ''}[interrupted by the user]`, main);
      return { status: 'interrupted', message: 'Interrupted; no edits from the partial reply were applied.' };
    }
    if (partial) this.emit({ type: 'assistant', text: partial, interrupted: true });
    const note = partial ? ' No edits from the partial reply were applied.' : '';
    this.emit({ type: 'error', message: `${reply.error.message}${note}` });
    return { status: 'error', message: reply.error.message };
  }

  /** The request is in the log before it is sent, so a crash during the reply still leaves it to resume. */
  private logUserMessage(content: string, main: boolean): void {
    if (main) this.deps.recorder?.record({ type: 'message', role: 'user', content });
  }

  /** The exchange joins the history; the reply (the request was logged already) joins the log. */
  private remember(history: ChatMessage[], user: string, assistant: string, main: boolean): void {
    history.push({ role: 'user', content: user }, { role: 'assistant', content: assistant });
    this.layoutOf(history).replied(history, assistant);
    if (main) this.deps.recorder?.record({ type: 'message', role: 'assistant', content: assistant });
  }

  private get fileOffers(): FileOfferDeps {
    return { files: this.ports.files, asker: this.ports.asker, chatFiles: this.chatFiles, readOnly: this.readOnlyNames(), add: (path) => this.addChatFile(path), declined: this.declinedFiles };
  }

  /** Instruction files and --read files: never edited, never offered as chat files. */
  private readOnlyNames(): string[] {
    return [...this.instructions.map((i) => i.name), ...this.readOnlyFiles.map((f) => f.name)];
  }

  private async summarizeIfLong(ack: string): Promise<void> {
    const summary = await summarizeHistory(this.history, {
      client: this.ports.weakModel,
      model: this.models.weak,
      systemPrompt: this.deps.texts.summarize,
      summaryTemplate: this.deps.texts.summaryTemplate,
      ack,
      count: (text) => this.profiles.get('main').tokens.count(text),
      budget: this.options.maxHistoryTokens ?? this.profiles.get('main').historyTokens,
    });
    if (!summary) return;
    this.history = [...summary.messages, ...this.history.slice(summary.replaced)];
    this.deps.recorder?.record({ type: 'summary', messages: summary.messages, replaced: summary.replaced });
    this.emit({ type: 'info', message: `Summarized ${summary.replaced} older messages to keep the history within its budget.` });
  }

  private async applyReply(
    reply: string,
    loaded: LoadedCoder,
    signal?: AbortSignal,
  ): Promise<{ failures: { sections: string[]; kinds: FailureKind[] }; stop?: RequestOutcome; declined?: boolean }> {
    const commit = this.ports.git && this.options.autoCommits ? (paths: string[], diff: string) => this.commitChange(paths, diff, loaded.prompts.commitMessage) : null;
    const declinedBefore = this.declinedFiles.size;
    const seen = [...this.chatFiles];
    let edits;
    try {
      edits = await runEditRound(
        reply,
        {
          root: this.options.root,
          chatFiles: this.chatFiles,
          dryRun: this.options.dryRun,
          dirtyCommits: this.options.dirtyCommits,
          readOnly: this.readOnlyNames(),
          hooksDir: this.options.hooksDir,
          uncommittedByTandem: this.uncommittedByTandem,
          declined: this.declinedFiles,
        },
        { coder: loaded.coder, asker: this.ports.asker, git: this.ports.git, emit: this.emit, lock: this.ports.lock ?? null, commit, journal: this.ports.applyJournal ?? null },
      );
    } catch (error) {
      return { failures: { sections: [], kinds: [] }, stop: this.endWithError(error, 'None of the edits in your last reply were applied') };
    }
    this.trackUncommitted(edits.written, edits.uncommitted);
    for (const path of edits.addedToChat) this.addChatFile(path);
    // Edits that did not apply to a file the model has not seen: offer it, and ask for those edits again.
    const unseen = edits.failures.filter((f) => f.reason !== 'denied' && !seen.includes(f.edit.path)).map((f) => f.edit.path);
    const added = await offerUnseenFiles(unseen, this.fileOffers);
    const declined = this.declinedFiles.size > declinedBefore || edits.failures.some((f) => f.reason === 'denied');
    this.totals.editsApplied += edits.appliedCount;
    this.totals.editsFailed += edits.failures.length;
    await offerShellCommands(edits.shellCommands, { shell: this.ports.shell, asker: this.ports.asker, emit: this.emit });

    const sections: string[] = [];
    const kinds: FailureKind[] = [];
    if (added.length > 0) sections.push(loaded.prompts.reflection.addedFilesRedo.replace('{files}', () => added.join(', ')));
    const editText = describeEditProblems(edits, loaded.prompts.reflection, new Set(added));
    if (editText) sections.push(editText);
    if (added.length > 0 || editText) kinds.push('edit');
    if (edits.approvalRequired) {
      return { failures: { sections, kinds }, stop: { status: 'approval_required', message: 'An edit needed approval that nobody could give.' }, declined };
    }
    const checks = await runCheckRound(
      edits.written,
      { lint: this.options.autoLint, test: this.options.autoTest && edits.written.length > 0 },
      { checks: this.ports.checks, emit: this.emit, prompts: loaded.prompts.reflection, testCommand: this.options.testCommand, signal },
    );
    if (signal?.aborted) return { failures: { sections, kinds }, stop: { status: 'interrupted', message: 'Interrupted while checking the change.' } };
    sections.push(...checks.failures);
    kinds.push(...checks.kinds);
    return { failures: { sections, kinds }, declined };
  }

  /**
   * A typed failure (git, disk, lock) ends the request, not the chat: one line for the user, and a note on
   * the last reply so the model knows next time that its edits did not land. Bugs are rethrown.
   */
  private endWithError(error: unknown, modelNote: string | null): RequestOutcome {
    if (!(error instanceof Error) || typeof (error as { kind?: unknown }).kind !== 'string') throw error;
    const message = error.message.split('\n')[0] ?? error.message;
    this.logDetail(message, (error as { detail?: unknown }).detail);
    this.emit({ type: 'error', message });
    const last = this.history.at(-1);
    if (modelNote && last?.role === 'assistant') {
      const content = `${last.content}\n\n[tandem: ${modelNote}: ${message}]`;
      this.history[this.history.length - 1] = { ...last, content };
      this.layoutOf(this.history).amendLastReply(this.history, content);
    }
    return { status: 'error', message };
  }

  /** Keeps the long form of a failure (git's hints, a stack) in the session log, out of the one-line message. */
  logDetail(message: string, detail: unknown): void {
    if (typeof detail !== 'string' || detail === '') return;
    this.deps.recorder?.record({ type: 'event', event: { type: 'error_detail', message, detail } });
  }

  /** Remembers what tandem wrote but could not commit, so it is never committed later as the user's work. */
  private trackUncommitted(written: ReadonlyArray<{ path: string; after: string }>, reason: string | undefined): void {
    for (const file of written) {
      if (reason) this.uncommittedByTandem.set(file.path, file.after);
      else this.uncommittedByTandem.delete(file.path);
    }
    if (reason && written.length > 0) {
      this.emit({ type: 'warning', message: `Left the edits to ${written.map((f) => f.path).join(', ')} uncommitted: ${reason}.` });
    }
  }

  private async commitChange(paths: string[], diff: string, systemPrompt: string): Promise<void> {
    if (!this.ports.git) return;
    const request = [...this.history].reverse().find((m) => m.role === 'user')?.content;
    const message = await writeCommitMessage({ client: this.ports.weakModel, model: this.models.weak, systemPrompt, diff, paths, context: request });
    const hash = await this.ports.git.commitTandemChange(paths, message);
    if (!hash) return;
    this.totals.commits++;
    this.emit({ type: 'commit', hash, message, files: paths, user: false });
  }

  private recordFiles(): void {
    this.deps.recorder?.record({ type: 'files', chat: [...this.chatFiles], readOnly: this.readOnlyFiles.map((f) => f.name) });
  }

  private async readChatFiles(): Promise<FileText[]> {
    // Confined like writing: a chat file whose real path leaves the repository, or that is no regular file, is not sent.
    return this.readFiles(this.chatFiles.map((path) => ({ path, absolutePath: join(this.options.root, path), root: this.options.root })));
  }

  private async readReadOnlyFiles(): Promise<FileText[]> {
    // The user named these (--read, /read-only): they may lie outside the repository, but are still capped.
    return this.readFiles(this.readOnlyFiles.map((f) => ({ path: f.name, absolutePath: f.absolutePath, root: null })));
  }

  private async readFiles(files: ReadonlyArray<{ path: string; absolutePath: string; root: string | null }>): Promise<FileText[]> {
    const out: FileText[] = [];
    for (const file of files) {
      const read = readConfinedText(file.absolutePath, { root: file.root, shown: file.path });
      if (read.ok) out.push({ path: file.path, text: read.text });
      else if (read.kind !== 'missing') this.emit({ type: 'warning', message: read.message });
    }
    return out;
  }

  private layoutOf(history: readonly ChatMessage[]): PromptLayout {
    let layout = this.layouts.get(history);
    if (!layout) this.layouts.set(history, (layout = new PromptLayout()));
    return layout;
  }

  private async repoMap(request: string): Promise<{ map: string; mentioned: string }> {
    if (!this.ports.repoMap || this.options.mapTokens <= 0) return { map: '', mentioned: '' };
    const map = await this.ports.repoMap.get({
      chatFiles: this.chatFiles,
      readOnlyFiles: this.readOnlyFiles.map((f) => f.name),
      requestText: request,
      budget: this.options.mapTokens,
    });
    const mentioned = (await this.ports.repoMap.mentionedDefinitions?.({ chatFiles: this.chatFiles, requestText: request })) ?? '';
    return { map, mentioned };
  }
}

/** Profiles for a session built without any: every model gets the options' window and placement. */
function fixedProfiles(options: SessionOptions, ports: RequestPorts): ModelProfiles {
  const tokenizers = { counterFor: () => ports.tokens };
  const build = (name: string): ModelProfile => ({
    ...buildModelProfile(name, { baseURL: '', tokenizers, contextWindow: options.contextWindow, startModel: name }),
    reminder: options.reminderPlacement,
  });
  return new ModelProfiles(build, options.models);
}

/** The messages before the conversation (history, chat files, the request): what a prompt cache can keep. */
function stablePrefixOf(built: BuiltMessages): number {
  const conversation = new Set(['history', 'chat files', 'request']);
  const end = built.parts.findIndex((part) => conversation.has(part.name));
  return built.parts.slice(0, end < 0 ? built.parts.length : end).reduce((sum, part) => sum + part.messages.length, 0);
}
