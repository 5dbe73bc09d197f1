// Watch mode's engine: which files are watched (what the repo map would list: tracked and untracked
// not ignored, .tandemignore honoured, text under the size cap, a known comment syntax), the AI
// comments there at start (foreign: never fired), and one request per burst of the user's saves.
// What git writes (checkout, pull, rebase, merge, stash) fires nothing: a comment that HEAD's version
// of the file holds (or a merge's other side, or a stash entry) is git's, whenever its event arrives.
// tandem's own writes fire nothing either.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { createGit, tryGit } from '../git/repo.js';
import { listRepoFiles } from '../git/ls-files.js';
import { tandemIgnore } from '../repomap/list-files.js';
import type { FileWatcher, WatchFiles } from '../platform/file-watcher.js';
import { readConfinedText } from '../platform/text-files.js';
import { readRegularFile } from '../platform/state-files.js';
import { findAiComments, watchesPath, type AiComment } from '../watch/ai-comments.js';
import { AiCommentTracker } from '../watch/comment-tracker.js';
import { SaveBurst, type Burst, type BurstTimer } from '../watch/save-burst.js';
import { buildWatchRequest, type CommentedFile, type WatchRequest, type WatchRequestTemplates } from '../watch/watch-request.js';

export interface FileWatchOptions {
  readonly root: string;
  /** Environment for the git calls (listing files, finding git's folder). */
  readonly env: Record<string, string | undefined>;
  readonly watchFiles: WatchFiles;
  readonly timer: BurstTimer;
  readonly templates: WatchRequestTemplates;
  /** A burst of saves wrote new AI comments that ask for something. */
  readonly onTrigger: (request: WatchRequest) => void;
  readonly warn: (message: string) => void;
  /** Quiet time that ends a save burst (tests shorten it). */
  readonly quietMs?: number;
}

/** Files above this are not read for comments (the cap chat files have too). */
const MAX_WATCHED_BYTES = 1024 * 1024;
/** Folders never watched, whatever git says. */
const SKIPPED_DIRS = new Set(['.git', '.tandem', 'node_modules']);
/** Stash entries read at start and after each stash move, and remembered (a popped one leaves the list). */
const STASHES_READ = 5;
const STASHES_KEPT = 20;
/** Files read between two turns of the event loop while taking stock at start. */
const READS_PER_TURN = 200;

export class FileWatch {
  private readonly tracker = new AiCommentTracker();
  /** Files holding comments the user wrote (maybe). */
  private readonly withUserComments = new Set<string>();
  private listed = new Set<string>();
  private dirs = new Set<string>();
  private ignored: (path: string) => boolean = () => false;
  private watcher: FileWatcher | null = null;
  private on = false;
  private starting: Promise<void> | null = null;
  private handling: Promise<void> = Promise.resolve();
  private ready = false;
  private gitDir: string | null = null;
  /** Stash entries' commits (the newest few, and any seen since start): a popped stash is git's too. */
  private stashes: string[] = [];
  private readonly burst: SaveBurst;

  constructor(private readonly options: FileWatchOptions) {
    this.burst = new SaveBurst({
      timer: options.timer,
      quietMs: options.quietMs,
      onBurst: (burst) => this.onBurst(burst),
      gitBusy: () => this.gitDir !== null && existsSync(join(this.gitDir, 'index.lock')),
    });
  }

  /** On from the moment start() is called (taking stock of a large tree takes a few seconds). */
  get watching(): boolean {
    return this.on;
  }

  /** How many files are watched. */
  get fileCount(): number {
    return this.listed.size;
  }

  /** Takes stock of the AI comments there now (none of them will fire) and starts watching. */
  async start(): Promise<void> {
    if (this.on) return this.starting ?? undefined;
    this.on = true;
    this.starting = this.begin();
    try {
      await this.starting;
    } catch (error) {
      this.on = false;
      throw error;
    } finally {
      this.starting = null;
    }
  }

  private async begin(): Promise<void> {
    const { root, env } = this.options;
    const git = createGit(root, { env });
    this.gitDir = await tryGit(git, ['rev-parse', '--absolute-git-dir']).then((out) => out?.trim() || null).catch(() => null);
    const common = await tryGit(git, ['rev-parse', '--path-format=absolute', '--git-common-dir']).then((out) => out?.trim() || null).catch(() => null);
    await this.readStashes();
    this.ignored = await tandemIgnore(root);
    const files = ((await listRepoFiles(root, env)) ?? []).filter((path) => this.admits(path));
    this.listed = new Set(files);
    this.dirs = new Set(files.flatMap(parentDirs));
    for (let i = 0; i < files.length; i++) {
      const path = files[i]!;
      const text = readRegularText(join(root, path), MAX_WATCHED_BYTES);
      if (text !== null) this.tracker.absorb(path, findAiComments(path, text));
      if (i % READS_PER_TURN === READS_PER_TURN - 1) await yieldToLoop();
    }
    this.ready = false;
    const watcher = await this.options.watchFiles({
      root,
      gitDirs: [this.gitDir, common !== this.gitDir ? common : null].filter((dir): dir is string => dir !== null),
      include: (path, directory) => this.includes(path, directory),
      onEvent: (event) => (event.kind === 'git' ? this.burst.gitMoved() : this.burst.file(event.path)),
      onError: (message) => this.options.warn(`watch: ${message}`),
    });
    // Stopped while starting: the new watcher goes at once.
    if (!this.on) return watcher.close();
    this.watcher = watcher;
    this.ready = true;
  }

  async stop(): Promise<void> {
    this.on = false;
    await this.starting?.catch(() => {});
    const watcher = this.watcher;
    this.watcher = null;
    this.burst.stop();
    await watcher?.close();
  }

  /** tandem wrote `path` (an applied edit): whatever AI comments it now holds are not the user's. */
  ownWrite(path: string): void {
    if (!this.watcher || !this.admits(path)) return;
    this.tracker.absorb(path, this.commentsOf(path));
  }

  private admits(path: string): boolean {
    return !path.startsWith('.tandem/') && watchesPath(path) && !this.ignored(path);
  }

  private includes(path: string, directory: boolean): boolean {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (directory) return !SKIPPED_DIRS.has(name) && !path.split('/').some((part) => SKIPPED_DIRS.has(part)) && (this.ready || this.dirs.has(path));
    if (path.split('/').some((part) => SKIPPED_DIRS.has(part))) return false;
    // A file made after start may be watched when git would list it (checked when it fires).
    return this.listed.has(path) || (this.ready && this.admits(path));
  }

  private commentsOf(path: string): AiComment[] {
    const read = readConfinedText(join(this.options.root, path), { root: this.options.root, maxBytes: MAX_WATCHED_BYTES });
    return read.ok ? findAiComments(path, read.text) : [];
  }

  private onBurst(burst: Burst): void {
    // Bursts are handled one after another, in order.
    this.handling = this.handling
      .then(() => this.handleBurst(burst))
      .catch((error: unknown) => this.options.warn(`watch: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Resolves once every burst that has ended is handled (tests wait on it). */
  handled(): Promise<void> {
    return this.handling;
  }

  private async handleBurst(burst: Burst): Promise<void> {
    if (!this.watcher) return;
    if (burst.git) await this.readStashes();
    const files = await this.listedNow(burst.files);
    const triggers: Array<AiComment & { path: string }> = [];
    for (const path of files) {
      const comments = this.commentsOf(path);
      // Comments that git's own versions of the file hold are git's, not the user's.
      if (this.tracker.fresh(path, comments).some((c) => c.kind !== 'context')) this.tracker.absorb(path, await this.gitComments(path, comments));
      const fresh = this.tracker.update(path, comments);
      if (this.tracker.userComments(path, comments).length > 0) this.withUserComments.add(path);
      else this.withUserComments.delete(path);
      for (const comment of fresh) if (comment.kind !== 'context') triggers.push({ ...comment, path });
    }
    if (triggers.length === 0 || !this.watcher) return;
    this.options.onTrigger(buildWatchRequest(this.userFiles(), triggers, this.options.templates));
  }

  /**
   * The file's comments as last seen plus those of its comments now that one of git's versions of it
   * holds (HEAD, a merge's or rebase's other side, a stash entry): absorbing that marks what a checkout,
   * pull, merge, rebase or stash pop wrote as foreign, and leaves the user's new ones to fire.
   */
  private async gitComments(path: string, now: readonly AiComment[]): Promise<AiComment[]> {
    const git = createGit(this.options.root, { env: this.options.env });
    const pending = ['MERGE_HEAD', 'REBASE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD'].filter((name) => this.gitDir !== null && existsSync(join(this.gitDir, name)));
    const keys = new Set<string>();
    for (const revision of ['HEAD', ...pending, ...this.stashes]) {
      const text = await tryGit(git, ['cat-file', '-p', `${revision}:${path}`]).catch(() => null);
      if (text !== null) for (const c of findAiComments(path, text.replace(/\r\n/g, '\n'))) keys.add(`${c.kind}\u0000${c.text}`);
    }
    return [...this.tracker.lastSeen(path), ...now.filter((c) => keys.has(`${c.kind}\u0000${c.text}`))];
  }

  private async readStashes(): Promise<void> {
    const git = createGit(this.options.root, { env: this.options.env });
    const list = await tryGit(git, ['stash', 'list', '--format=%H', '-n', String(STASHES_READ)]).catch(() => null);
    const now = (list ?? '').split('\n').filter((line) => /^[0-9a-f]{40,64}$/.test(line));
    this.stashes = [...new Set([...now, ...this.stashes])].slice(0, STASHES_KEPT);
  }

  /** The burst's files that git lists (a file made after start is checked against git now). */
  private async listedNow(paths: readonly string[]): Promise<string[]> {
    const unknown = paths.filter((path) => !this.listed.has(path));
    if (unknown.length > 0) {
      const now = new Set(((await listRepoFiles(this.options.root, this.options.env)) ?? []).filter((path) => this.admits(path)));
      for (const path of unknown) if (now.has(path)) this.listed.add(path);
    }
    return paths.filter((path) => this.listed.has(path));
  }

  private userFiles(): CommentedFile[] {
    const files: CommentedFile[] = [];
    for (const path of [...this.withUserComments].sort()) {
      const read = readConfinedText(join(this.options.root, path), { root: this.options.root, maxBytes: MAX_WATCHED_BYTES });
      if (!read.ok) continue;
      const comments = this.tracker.userComments(path, findAiComments(path, read.text));
      if (comments.length > 0) files.push({ path, text: read.text, comments });
    }
    return files;
  }
}

/** `a/b/c.py` -> `a`, `a/b`. */
function parentDirs(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/**
 * The text of a regular file (not a symlink, not a device, at most `maxBytes`), or null. The quick read
 * for taking stock at start: what it finds is only ever marked foreign, so it needs no realpath checks.
 */
function readRegularText(path: string, maxBytes: number): string | null {
  return readRegularFile(path, (st) => st.size <= maxBytes)?.data.toString('utf8') ?? null;
}
