// The chat: files, history and modes, and one user request carried through its rounds of reflection.
// It emits events and records the log; it never prints. Model failures arrive as values.
import type { CoderFormat } from '../coders/coder.js';
import type { BuiltMessages } from '../coders/messages.js';
import { buildMessages } from '../coders/messages.js';
import type { RequestPorts } from '../coders/ports.js';
import { offerMentionedFiles, type FileOfferDeps } from '../round/file-offers.js';
import { UncommittedLedger } from '../round/ledger.js';
import { ReflectionBudget } from '../round/reflection-step.js';
import { applyReplyOnce, runReplyRound, type RoundDeps } from '../round/round.js';
import { buildModelProfile, type ModelProfile } from '../model/model-profile.js';
import { withoutReasoning } from '../model/think-tags.js';
import type { ChatMessage } from '../model/types.js';
import { ChatContext } from './chat-context.js';
import { Conversation } from './conversation.js';
import { endWithError } from './error-ending.js';
import type { EmitEvent, Totals } from './events.js';
import { readChatFileTexts, readReadOnlyTexts, RefusalWarnings } from './file-texts.js';
import type { ModelProfiles, ModelRole } from './model-profiles.js';
import { PromptLayout, type RestoredLayout } from './prompt-layout.js';
import { requestReply, requestWithinWindow, type RequestStepDeps } from './request-step.js';
import type { ChatMode, Instruction, LoadedCoder, ReadOnlyFile, RequestOutcome, SessionDeps, SessionOptions, StepResult } from './session-types.js';
import { summarizeHistory } from './summarize.js';
import { SessionTotals } from './totals.js';
import { fillPlaceholders } from '../platform/placeholders.js';

export type { ChatMode, CoderLoader, Instruction, LoadedCoder, ReadOnlyFile, RequestOutcome, SessionDeps, SessionOptions, SessionTexts } from './session-types.js';
export type { ModelRole } from './model-profiles.js';

export class Session {
  // Changed only through the methods below, which record each change in the session log.
  private readonly files: string[] = [];
  private readonly readOnly: ReadOnlyFile[] = [];
  private readonly instructions: Instruction[] = [];
  /** Web pages and images: context that is not a repository file. */
  readonly context = new ChatContext((entry) => this.deps.recorder?.record(entry));
  history: ChatMessage[] = [];
  readonly totals = new SessionTotals();
  mode: ChatMode;
  readonly profiles: ModelProfiles;
  editFormat: CoderFormat;
  editorFormat: CoderFormat;
  /** HEAD when the last request started, for /diff (null: no commit yet; undefined: no request yet). */
  lastRequestStartHash: string | null | undefined = undefined;
  /** What tandem wrote and has not committed (git mid-merge): never committed later as the user's work. */
  private readonly ledger = new UncommittedLedger();
  /** Files the user said no to (adding, editing) in this chat: not offered again. */
  private readonly declinedFiles = new Set<string>();
  /** Chat files whose text was refused (too big, special, outside) and already warned about. */
  private readonly refusalWarnings = new RefusalWarnings();
  /** One append-only prompt layout per conversation (a replaced history array starts a new one). */
  private readonly layouts = new WeakMap<readonly ChatMessage[], PromptLayout>();

  constructor(
    readonly options: SessionOptions,
    private readonly deps: SessionDeps,
  ) {
    this.mode = options.mode;
    this.editFormat = options.editFormat;
    this.editorFormat = options.editorFormat;
    this.profiles = deps.profiles;
  }

  get chatFiles(): readonly string[] {
    return this.files;
  }

  get readOnlyFiles(): readonly ReadOnlyFile[] {
    return this.readOnly;
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
    const sandbox = this.options.sandbox ? { sandbox: this.options.sandbox } : {};
    this.emit({ type: 'session', model: this.models.main, editFormat: format, files: [...this.chatFiles], readOnly: this.readOnlyFiles.map((f) => f.name), ...sandbox });
  }

  setMode(mode: ChatMode): void {
    this.mode = mode;
  }

  /** Swaps the whole profile of `role` (and of the models that follow it); returns the roles changed. */
  async setModel(role: ModelRole, name: string, by = `/${role === 'main' ? 'model' : `${role}-model`} in this chat`): Promise<ModelRole[]> {
    const changed = this.profiles.set(role, name, by);
    const main = this.profiles.get('main');
    const images = this.context.images.length;
    if (changed.includes('main') && main.settings.vision === false && images > 0) {
      this.emit({ type: 'warning', message: `${main.name} does not take images (vision: false in its model settings); /drop the chat's ${images} image(s) before the next request.` });
    }
    if (changed.includes('main') && !this.options.editFormatChosen) this.editFormat = this.profiles.get('main').editFormat;
    if (changed.includes('editor') && !this.options.editorFormatChosen) this.editorFormat = this.profiles.get('editor').editFormat;
    return changed;
  }

  addChatFile(path: string): boolean {
    if (this.files.includes(path)) return false;
    this.files.push(path);
    this.recordFiles();
    return true;
  }

  dropChatFile(path: string): boolean {
    return this.removeAt(this.files, this.files.indexOf(path));
  }

  dropAllChatFiles(): number {
    return this.removeAll(this.files);
  }

  addReadOnlyFile(file: ReadOnlyFile): boolean {
    if (this.readOnly.some((f) => f.absolutePath === file.absolutePath)) return false;
    this.readOnly.push(file);
    this.recordFiles();
    return true;
  }

  /** Takes a read-only file out of the chat, by its name or absolute path. */
  dropReadOnlyFile(name: string): boolean {
    return this.removeAt(this.readOnly, this.readOnly.findIndex((f) => f.name === name || f.absolutePath === name));
  }

  dropAllReadOnlyFiles(): number {
    return this.removeAll(this.readOnly);
  }

  /** Repository instructions (AGENTS.md) for every request; never edited, never offered as chat files. */
  addInstructions(found: readonly Instruction[]): void {
    this.instructions.push(...found);
  }

  /** A note for the model's history that is not a request (what /undo reverted, /run output). */
  addNote(user: string, assistant: string): void {
    this.chatConversation().remember(user, assistant);
  }

  clearHistory(): void {
    this.history = [];
    this.deps.recorder?.record({ type: 'clear' });
  }

  /** Puts back a chat read from a session log (nothing is recorded again). */
  restore(history: readonly ChatMessage[], chatFiles: readonly string[], layout: RestoredLayout | null = null): void {
    // A log written before reasoning was kept apart may still hold it: it is never sent back.
    this.history = history.map((m) => (m.role === 'assistant' ? { ...m, content: withoutReasoning(m.content) } : m));
    this.files.splice(0, this.files.length, ...chatFiles);
    // The next request appends to the conversation the model last saw, so its prompt cache still holds.
    if (layout) this.layoutOf(this.history).restore(this.history, layout);
  }

  /** One user request and its reflections, in the session's mode or a one-off `mode`. */
  async runRequest(text: string, signal?: AbortSignal, options: { mode?: ChatMode } = {}): Promise<RequestOutcome> {
    const outcome = await this.runRequestSteps(text, signal, options);
    this.emit({ type: 'request_end', status: outcome.status });
    return outcome;
  }

  private async runRequestSteps(text: string, signal: AbortSignal | undefined, options: { mode?: ChatMode }): Promise<RequestOutcome> {
    const mode = options.mode ?? this.mode;
    this.emit({ type: 'user', text, mode });
    try {
      await offerMentionedFiles(text, this.fileOffers);
      const loaded = await this.deps.loadCoder(this.coderKindFor(mode));
      await this.summarizeIfLong(loaded.prompts.context.ack);
      if (mode === 'architect') return await this.runArchitect(text, signal, loaded);
      if (mode === 'context') return await this.runContext(text, signal, loaded);
      return await this.runLoop(text, signal, loaded, 'main', this.chatConversation());
    } catch (error) {
      return this.endWithError(error, null);
    }
  }

  /**
   * A reply written elsewhere (`--apply FILE`, the clipboard): parsed in the chat's edit format and
   * applied, committed and checked exactly like a model's reply. Nobody can be asked to fix what fails,
   * so failures end the request with status reflection_limit.
   */
  async applyReply(text: string, signal?: AbortSignal): Promise<RequestOutcome> {
    try {
      const loaded = await this.deps.loadCoder(this.editFormat);
      this.emit({ type: 'assistant', text, interrupted: false });
      const outcome = await applyReplyOnce(text, loaded, this.roundDeps(), signal);
      return 'error' in outcome ? this.endWithError(outcome.error, outcome.modelNote) : outcome;
    } catch (error) {
      return this.endWithError(error, null);
    }
  }

  /** The messages the next request would carry, with their named parts. `sending`: this request goes out. */
  async buildRequest(request: string, loaded?: LoadedCoder, history: readonly ChatMessage[] = this.history, sending = false): Promise<BuiltMessages> {
    const coder = loaded ?? (await this.deps.loadCoder(this.coderKindFor(this.mode)));
    const reading = { emit: this.emit, warned: this.refusalWarnings, fs: this.deps.fileSystem };
    const chatFiles = readChatFileTexts(this.options.root, this.chatFiles, reading);
    const readOnlyFiles = readReadOnlyTexts(this.readOnlyFiles, reading, this.options.root);
    const { map, mentioned } = await this.repoMap(request);
    const layout = this.layoutOf(history);
    const turn = layout.next(history, chatFiles);
    const built = buildMessages({
      format: coder.prompts.format,
      context: coder.prompts.context,
      readOnlyFiles: [...this.instructions.map((i) => ({ path: i.name, text: i.text })), ...readOnlyFiles],
      webPages: this.context.webPages.map((p) => ({ path: p.url, text: p.text })),
      images: this.context.images.map((p) => ({ name: p.name, dataUrl: p.dataUrl, tokens: p.tokens })),
      repoMap: map,
      conversation: turn.conversation,
      turn: { text: request, fullFiles: turn.fullFiles, changes: turn.changes, mentioned, noChatFiles: chatFiles.length === 0 },
      reminderPlacement: this.profiles.get('main').reminder,
      systemPrefix: this.profiles.get('main').settings.systemPromptPrefix,
    });
    if (sending) layout.sent(history, turn, built.messages[built.messages.length - 1]!);
    return built;
  }

  resultTotals(): Totals {
    return this.totals.snapshot();
  }

  /** The coder a mode talks through: the edit format's, ask's, or the architect's planner. */
  private coderKindFor(mode: ChatMode): CoderFormat | 'architect' | 'context' {
    return mode === 'code' ? this.editFormat : mode;
  }

  private async runArchitect(text: string, signal: AbortSignal | undefined, planner: LoadedCoder): Promise<RequestOutcome> {
    const chat = this.chatConversation();
    const built = await this.buildRequest(text, planner, chat.history, true);
    const plan = await requestReply(built, text, this.models.main, chat, this.requestDeps, signal);
    if (!plan.ok) return plan.outcome;
    const editor = await this.deps.loadCoder(this.editorFormat);
    const request = fillPlaceholders(this.deps.texts.editorRequest, { plan: plan.text });
    // The editor carries out the plan in a conversation of its own, which the log does not keep.
    const history: ChatMessage[] = [];
    return this.runLoop(request, signal, editor, 'editor', new Conversation(history, this.layoutOf(history), null));
  }

  /** Context mode: one answer naming files, and an offer of each repository file it names; nothing is edited. */
  private async runContext(text: string, signal: AbortSignal | undefined, loaded: LoadedCoder): Promise<RequestOutcome> {
    const chat = this.chatConversation();
    const built = await this.buildRequest(text, loaded, chat.history, true);
    const reply = await requestReply(built, text, this.models.main, chat, this.requestDeps, signal);
    if (!reply.ok) return reply.outcome;
    await offerMentionedFiles(reply.text, this.fileOffers);
    return { status: 'completed' };
  }

  /** The request and its reflections: one turn after another until one ends it. */
  private async runLoop(text: string, signal: AbortSignal | undefined, loaded: LoadedCoder, role: ModelRole, conversation: Conversation): Promise<RequestOutcome> {
    const budget = new ReflectionBudget(this.options.maxReflections);
    let message = text;
    for (;;) {
      const step = await this.runTurn(message, loaded, role, conversation, budget, signal);
      if ('end' in step) return step.end;
      message = step.next;
    }
  }

  /** One request and the round its reply makes (in round/): the next message, or the end. */
  private async runTurn(message: string, loaded: LoadedCoder, role: ModelRole, conversation: Conversation, budget: ReflectionBudget, signal?: AbortSignal): Promise<StepResult> {
    const built = await this.buildRequest(message, loaded, conversation.history, true);
    const reply = await requestWithinWindow(built, message, this.profiles.get(role), conversation, this.requestDeps, signal);
    if (!reply.ok) return { end: reply.outcome };
    if (!loaded.coder.makesEdits) return { end: { status: 'completed' } };
    const step = await runReplyRound(reply.text, loaded, budget, this.roundDeps(), signal);
    return 'error' in step ? { end: this.endWithError(step.error, step.modelNote) } : step;
  }

  /** The chat's own conversation, which the session log records. */
  private chatConversation(): Conversation {
    return new Conversation(this.history, this.layoutOf(this.history), this.deps.recorder);
  }

  private get requestDeps(): RequestStepDeps {
    return { client: this.ports.model, asker: this.ports.asker, emit: this.emit, totals: this.totals, stream: this.options.stream, clock: this.ports.clock };
  }

  private roundDeps(): RoundDeps {
    const request = [...this.history].reverse().find((m) => m.role === 'user')?.content;
    return {
      options: this.options,
      ports: this.ports,
      emit: this.emit,
      totals: this.totals,
      ledger: this.ledger,
      chat: this.fileOffers,
      commitMessage: { models: this.models, request },
    };
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
      tokens: { count: (text) => this.profiles.get('main').tokens.count(text) },
      budget: this.options.maxHistoryTokens ?? this.profiles.get('main').historyTokens,
    });
    if (!summary) return;
    this.history = [...summary.messages, ...this.history.slice(summary.replaced)];
    this.deps.recorder?.record({ type: 'summary', messages: summary.messages, replaced: summary.replaced });
    this.emit({ type: 'info', message: `Summarized ${summary.replaced} older messages to keep the history within its budget.` });
  }

  private endWithError(error: unknown, modelNote: string | null): RequestOutcome {
    return endWithError(error, modelNote, { emit: this.emit, logDetail: (m, d) => this.logDetail(m, d), conversation: this.chatConversation() });
  }

  /** Keeps the long form of a failure (git's hints, a stack) in the session log, out of the one-line message. */
  logDetail(message: string, detail: unknown): void {
    if (typeof detail !== 'string' || detail === '') return;
    this.deps.recorder?.record({ type: 'event', event: { type: 'error_detail', message, detail } });
  }

  private removeAt<T>(list: T[], index: number): boolean {
    if (index < 0) return false;
    list.splice(index, 1);
    this.recordFiles();
    return true;
  }

  private removeAll<T>(list: T[]): number {
    const count = list.splice(0).length;
    this.recordFiles();
    return count;
  }

  private recordFiles(): void {
    this.deps.recorder?.record({ type: 'files', chat: [...this.chatFiles], readOnly: this.readOnlyFiles.map((f) => f.name) });
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
