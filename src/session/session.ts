// The chat: files, history, and one user request carried through its rounds of reflection.
// It emits events; it never prints. Model failures arrive as values, never as exceptions.
import { join } from 'node:path';
import type { Coder } from '../coders/base-coder.js';
import { runCheckRound } from '../coders/check-round.js';
import { writeCommitMessage } from '../coders/commit-message.js';
import { describeEditProblems, runEditRound } from '../coders/edit-round.js';
import type { BuiltMessages, FileText } from '../coders/messages.js';
import { buildMessages } from '../coders/messages.js';
import type { RequestPorts } from '../coders/ports.js';
import type { PromptSet } from '../coders/prompt-set.js';
import type { FailureKind } from '../coders/reflection.js';
import { decideReflection, needsFixApproval } from '../coders/reflection.js';
import type { ChatMessage, ChatResult } from '../model/types.js';
import { readTextFile } from '../platform/text-files.js';
import type { EmitEvent, ResultStatus, Totals } from './events.js';
import { SessionTotals } from './totals.js';

export interface SessionOptions {
  readonly root: string;
  readonly model: string;
  readonly weakModel: string;
  readonly stream: boolean;
  readonly dryRun: boolean;
  readonly autoCommits: boolean;
  readonly dirtyCommits: boolean;
  readonly autoLint: boolean;
  readonly autoTest: boolean;
  readonly testCommand: string;
  readonly maxReflections: number;
  readonly mapTokens: number;
  readonly temperature?: number;
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

export class Session {
  readonly chatFiles: string[] = [];
  readonly readOnlyFiles: ReadOnlyFile[] = [];
  history: ChatMessage[] = [];
  readonly totals = new SessionTotals();
  /** Commits tandem made during the last request, for /diff. */
  lastRequestStartHash: string | null = null;

  constructor(
    readonly options: SessionOptions,
    private coder: Coder,
    private prompts: PromptSet,
    private readonly ports: RequestPorts,
    private readonly emit: EmitEvent,
  ) {}

  get format(): string {
    return this.coder.format;
  }

  setCoder(coder: Coder, prompts: PromptSet): void {
    this.coder = coder;
    this.prompts = prompts;
  }

  announce(): void {
    this.emit({
      type: 'session',
      model: this.options.model,
      editFormat: this.coder.format,
      files: [...this.chatFiles],
      readOnly: this.readOnlyFiles.map((f) => f.name),
    });
  }

  addChatFile(path: string): boolean {
    if (this.chatFiles.includes(path)) return false;
    this.chatFiles.push(path);
    return true;
  }

  dropChatFile(path: string): boolean {
    const index = this.chatFiles.indexOf(path);
    if (index < 0) return false;
    this.chatFiles.splice(index, 1);
    return true;
  }

  clearHistory(): void {
    this.history = [];
  }

  /** One user request and its reflections. */
  async runRequest(text: string, signal?: AbortSignal): Promise<RequestOutcome> {
    let message = text;
    for (let used = 0; ; used++) {
      const built = await this.buildRequest(message);
      const reply = await this.send(built, signal);
      if (!reply.ok) return this.failedReply(message, reply);
      this.remember(message, reply.text);
      if (!this.coder.makesEdits) return { status: 'completed' };

      const round = await this.applyReply(reply.text);
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

  /** The messages the next request would carry, with token counts per part. */
  async buildRequest(request: string): Promise<BuiltMessages> {
    const [chatFiles, readOnlyFiles] = await Promise.all([this.readChatFiles(), this.readReadOnlyFiles()]);
    const repoMap = await this.repoMap(request);
    return buildMessages({
        format: this.prompts.format,
        context: this.prompts.context,
        readOnlyFiles,
        repoMap,
        history: this.history,
        chatFiles,
        request,
    });
  }

  private async send(built: BuiltMessages, signal?: AbortSignal): Promise<ChatResult> {
    this.emit({ type: 'waiting' });
    this.totals.requests++;
    const result = await this.ports.model.chat({
      model: this.options.model,
      messages: built.messages,
      stream: this.options.stream,
      signal,
      onText: (delta) => this.emit({ type: 'assistant_delta', text: delta }),
      temperature: this.options.temperature,
    });
    const usage = result.usage;
    if (usage) {
      this.totals.addUsage(usage);
      this.emit({ type: 'usage', ...usage, sessionCost: this.totals.cost });
    }
    if (result.ok) this.emit({ type: 'assistant', text: result.text, interrupted: false });
    return result;
  }

  private failedReply(message: string, reply: Extract<ChatResult, { ok: false }>): RequestOutcome {
    if (reply.error.kind === 'aborted') {
      const partial = reply.partialText ? `${reply.partialText}\n\n[interrupted by the user]` : '[interrupted by the user]';
      this.emit({ type: 'assistant', text: reply.partialText, interrupted: true });
      this.remember(message, partial);
      return { status: 'interrupted', message: 'Interrupted; no edits from the partial reply were applied.' };
    }
    if (reply.partialText) this.emit({ type: 'assistant', text: reply.partialText, interrupted: true });
    const note = reply.partialText ? ' No edits from the partial reply were applied.' : '';
    this.emit({ type: 'error', message: `${reply.error.message}${note}` });
    return { status: 'error', message: reply.error.message };
  }

  private remember(user: string, assistant: string): void {
    this.history.push({ role: 'user', content: user }, { role: 'assistant', content: assistant });
  }

  private async applyReply(reply: string): Promise<{ failures: { sections: string[]; kinds: FailureKind[] }; stop?: RequestOutcome }> {
    const edits = await runEditRound(
      reply,
      { root: this.options.root, chatFiles: this.chatFiles, dryRun: this.options.dryRun, dirtyCommits: this.options.dirtyCommits },
      { coder: this.coder, asker: this.ports.asker, git: this.ports.git, emit: this.emit },
    );
    for (const path of edits.addedToChat) if (!this.chatFiles.includes(path)) this.chatFiles.push(path);
    this.totals.editsApplied += edits.appliedCount;
    this.totals.editsFailed += edits.failures.length;
    await this.offerShellCommands(edits.shellCommands);

    const sections: string[] = [];
    const kinds: FailureKind[] = [];
    const editText = describeEditProblems(edits, this.prompts.reflection);
    if (editText) {
      sections.push(editText);
      kinds.push('edit');
    }
    if (edits.approvalRequired) {
      this.remember('(tandem) Some edits were not applied.', editText);
      return { failures: { sections, kinds }, stop: { status: 'approval_required', message: 'An edit needed approval that nobody could give.' } };
    }
    if (edits.written.length > 0) await this.commitChange(edits.written.map((f) => f.path), edits.diff);
    const checks = await runCheckRound(
      edits.written,
      { lint: this.options.autoLint, test: this.options.autoTest && edits.written.length > 0 },
      { checks: this.ports.checks, emit: this.emit, prompts: this.prompts.reflection, testCommand: this.options.testCommand },
    );
    sections.push(...checks.failures);
    kinds.push(...checks.kinds);
    return { failures: { sections, kinds } };
  }

  private async commitChange(paths: string[], diff: string): Promise<void> {
    if (!this.ports.git || !this.options.autoCommits) return;
    const request = [...this.history].reverse().find((m) => m.role === 'user')?.content;
    const message = await writeCommitMessage({
      client: this.ports.weakModel,
      model: this.options.weakModel,
      systemPrompt: this.prompts.commitMessage,
      diff,
      paths,
      context: request,
    });
    const hash = await this.ports.git.commitTandemChange(paths, message);
    if (!hash) return;
    this.totals.commits++;
    this.emit({ type: 'commit', hash, message, files: paths, user: false });
  }

  private async offerShellCommands(commands: readonly string[]): Promise<void> {
    for (const command of commands) {
      const shell = this.ports.shell;
      const answer = shell ? await this.ports.asker.confirm(`Run the suggested command: ${command}?`, 'shell-command') : 'no';
      if (answer !== 'yes' || !shell) {
        this.emit({ type: 'shell', command, ran: false });
        continue;
      }
      const result = await shell.run(command);
      this.emit({ type: 'shell', command, ran: true, output: result.output });
    }
  }

  private async readChatFiles(): Promise<FileText[]> {
    const files = await Promise.all(
      this.chatFiles.map(async (path) => ({ path, text: await readTextFile(join(this.options.root, path)) })),
    );
    return files.filter((f): f is FileText => f.text !== null);
  }

  private async readReadOnlyFiles(): Promise<FileText[]> {
    const files = await Promise.all(
      this.readOnlyFiles.map(async (f) => ({ path: f.name, text: await readTextFile(f.absolutePath) })),
    );
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

  resultTotals(): Totals {
    return this.totals.snapshot();
  }
}
