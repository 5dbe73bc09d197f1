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
import type { ChatMessage, ChatResult } from '../model/types.js';
import { readTextFile } from '../platform/text-files.js';
import { checkContextWindow } from './context-window.js';
import { offerFilesTheReplyNeeds, offerMentionedFiles, type FileOfferDeps } from './file-offers.js';
import type { EmitEvent, ResultStatus, Totals } from './events.js';
import type { SessionRecorder } from './session-log.js';
import { summarizeHistory } from './summarize.js';
import { SessionTotals } from './totals.js';

export type ChatMode = 'code' | 'ask' | 'architect';
export type ModelRole = 'main' | 'weak' | 'editor';

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
  readonly maxHistoryTokens: number;
  readonly contextWindow: number;
  readonly reminderPlacement: 'system' | 'user';
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
  readonly model: string;
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
  readonly models: Record<ModelRole, string>;
  /** HEAD when the last request started, for /diff (null: no commit yet; undefined: no request yet). */
  lastRequestStartHash: string | null | undefined = undefined;

  constructor(
    readonly options: SessionOptions,
    private readonly deps: SessionDeps,
  ) {
    this.mode = options.mode;
    this.models = { ...options.models };
  }

  private get emit(): EmitEvent {
    return this.deps.emit;
  }

  private get ports(): RequestPorts {
    return this.deps.ports;
  }

  announce(): void {
    const format = this.mode === 'code' ? this.options.editFormat : this.mode;
    this.emit({ type: 'session', model: this.models.main, editFormat: format, files: [...this.chatFiles], readOnly: this.readOnlyFiles.map((f) => f.name) });
  }

  setMode(mode: ChatMode): void {
    this.mode = mode;
  }

  async setModel(role: ModelRole, name: string): Promise<void> {
    this.models[role] = name;
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
    this.history = [...history];
    this.chatFiles.splice(0, this.chatFiles.length, ...chatFiles);
  }

  /** One user request and its reflections, in the session's mode or a one-off `mode`. */
  async runRequest(text: string, signal?: AbortSignal, options: { mode?: ChatMode } = {}): Promise<RequestOutcome> {
    const mode = options.mode ?? this.mode;
    this.emit({ type: 'user', text, mode });
    await offerMentionedFiles(text, this.fileOffers);
    const loaded = await this.deps.loadCoder(this.coderKindFor(mode));
    await this.summarizeIfLong(loaded.prompts.context.ack);
    if (mode === 'architect') return this.runArchitect(text, signal, loaded);
    return this.runLoop(text, signal, { loaded, model: this.models.main, history: this.history, main: true });
  }

  /** The messages the next request would carry, with their named parts. */
  async buildRequest(request: string, loaded?: LoadedCoder, history: readonly ChatMessage[] = this.history): Promise<BuiltMessages> {
    const coder = loaded ?? (await this.deps.loadCoder(this.coderKindFor(this.mode)));
    const [chatFiles, readOnlyFiles] = await Promise.all([this.readChatFiles(), this.readReadOnlyFiles()]);
    const repoMap = await this.repoMap(request);
    return buildMessages({
      format: coder.prompts.format,
      context: coder.prompts.context,
      readOnlyFiles: [...this.instructions.map((i) => ({ path: i.name, text: i.text })), ...readOnlyFiles],
      repoMap,
      history,
      chatFiles,
      request,
      reminderPlacement: this.options.reminderPlacement,
    });
  }

  resultTotals(): Totals {
    return this.totals.snapshot();
  }

  /** The coder a mode talks through: the edit format's, ask's, or the architect's planner. */
  private coderKindFor(mode: ChatMode): CoderFormat | 'architect' {
    return mode === 'code' ? this.options.editFormat : mode;
  }

  private async runArchitect(text: string, signal: AbortSignal | undefined, planner: LoadedCoder): Promise<RequestOutcome> {
    const built = await this.buildRequest(text, planner);
    const plan = await this.send(built, this.models.main, signal);
    if (!plan.ok) return this.failedReply(text, plan, this.history, true);
    this.remember(this.history, text, plan.text, true);
    const editor = await this.deps.loadCoder(this.options.editorFormat);
    const request = this.deps.texts.editorRequest.replace('{plan}', () => plan.text);
    return this.runLoop(request, signal, { loaded: editor, model: this.models.editor, history: [], main: false });
  }

  private async runLoop(text: string, signal: AbortSignal | undefined, profile: Profile): Promise<RequestOutcome> {
    let message = text;
    for (let used = 0; ; used++) {
      const built = await this.buildRequest(message, profile.loaded, profile.history);
      const room = checkContextWindow(built, this.options.contextWindow, this.ports.tokens);
      if (room) {
        const answer = await this.ports.asker.confirm(room, 'oversized-request');
        if (answer === 'unanswerable') return { status: 'approval_required', message: room };
        if (answer === 'no') return { status: 'completed', message: 'Request not sent.' };
      }
      const reply = await this.send(built, profile.model, signal);
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

      const round = await this.applyReply(reply.text, profile.loaded);
      if (round.stop) return round.stop;
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
    });
    if (result.usage) {
      this.totals.addUsage(result.usage);
      this.emit({ type: 'usage', ...result.usage, sessionCost: this.totals.cost });
    }
    if (result.ok) this.emit({ type: 'assistant', text: result.text, interrupted: false });
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

  private remember(history: ChatMessage[], user: string, assistant: string, main: boolean): void {
    history.push({ role: 'user', content: user }, { role: 'assistant', content: assistant });
    if (!main) return;
    this.deps.recorder?.record({ type: 'message', role: 'user', content: user });
    this.deps.recorder?.record({ type: 'message', role: 'assistant', content: assistant });
  }

  private get fileOffers(): FileOfferDeps {
    return { files: this.ports.files, asker: this.ports.asker, chatFiles: this.chatFiles, add: (path) => this.addChatFile(path) };
  }

  private async summarizeIfLong(ack: string): Promise<void> {
    const summary = await summarizeHistory(this.history, {
      client: this.ports.weakModel,
      model: this.models.weak,
      systemPrompt: this.deps.texts.summarize,
      summaryTemplate: this.deps.texts.summaryTemplate,
      ack,
      count: (text) => this.ports.tokens.count(text),
      budget: this.options.maxHistoryTokens,
    });
    if (!summary) return;
    this.history = [...summary.messages, ...this.history.slice(summary.replaced)];
    this.deps.recorder?.record({ type: 'summary', messages: summary.messages, replaced: summary.replaced });
    this.emit({ type: 'info', message: `Summarized ${summary.replaced} older messages to keep the history within its budget.` });
  }

  private async applyReply(reply: string, loaded: LoadedCoder): Promise<{ failures: { sections: string[]; kinds: FailureKind[] }; stop?: RequestOutcome }> {
    const edits = await runEditRound(
      reply,
      { root: this.options.root, chatFiles: this.chatFiles, dryRun: this.options.dryRun, dirtyCommits: this.options.dirtyCommits },
      { coder: loaded.coder, asker: this.ports.asker, git: this.ports.git, emit: this.emit },
    );
    for (const path of edits.addedToChat) this.addChatFile(path);
    this.totals.editsApplied += edits.appliedCount;
    this.totals.editsFailed += edits.failures.length;
    await offerShellCommands(edits.shellCommands, { shell: this.ports.shell, asker: this.ports.asker, emit: this.emit });

    const sections: string[] = [];
    const kinds: FailureKind[] = [];
    const editText = describeEditProblems(edits, loaded.prompts.reflection);
    if (editText) {
      sections.push(editText);
      kinds.push('edit');
    }
    if (edits.approvalRequired) {
      return { failures: { sections, kinds }, stop: { status: 'approval_required', message: 'An edit needed approval that nobody could give.' } };
    }
    if (edits.written.length > 0) await this.commitChange(edits.written.map((f) => f.path), edits.diff, loaded.prompts.commitMessage);
    const checks = await runCheckRound(
      edits.written,
      { lint: this.options.autoLint, test: this.options.autoTest && edits.written.length > 0 },
      { checks: this.ports.checks, emit: this.emit, prompts: loaded.prompts.reflection, testCommand: this.options.testCommand },
    );
    sections.push(...checks.failures);
    kinds.push(...checks.kinds);
    return { failures: { sections, kinds } };
  }

  private async commitChange(paths: string[], diff: string, systemPrompt: string): Promise<void> {
    if (!this.ports.git || !this.options.autoCommits) return;
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
    const files = await Promise.all(this.chatFiles.map(async (path) => ({ path, text: await readTextFile(join(this.options.root, path)) })));
    return files.filter((f): f is FileText => f.text !== null);
  }

  private async readReadOnlyFiles(): Promise<FileText[]> {
    const files = await Promise.all(this.readOnlyFiles.map(async (f) => ({ path: f.name, text: await readTextFile(f.absolutePath) })));
    return files.filter((f): f is FileText => f.text !== null);
  }

  private async repoMap(request: string): Promise<string> {
    if (!this.ports.repoMap || this.options.mapTokens <= 0) return '';
    return this.ports.repoMap.get({
      chatFiles: this.chatFiles,
      readOnlyFiles: this.readOnlyFiles.map((f) => f.name),
      requestText: request,
      budget: this.options.mapTokens,
    });
  }
}
