// Which edits a reply may make without a question: the one place that says which files are
// tandem's or git's own (never edited), which change what runs next (a person must say yes), and
// which new files are ordinary enough to create silently. Pure: paths in, an answer out.
import { posix } from 'node:path';
import { commandShadowReason } from './command-shadows.js';
import { manifestHookReason } from './manifest-hooks.js';

/**
 * - refused: never written by an edit, whoever answers (tandem's config and state, `.git/`, read-only files)
 * - person-only: a person must say yes; `--yes-always` does not answer, headless means nobody can
 * - ask: a question that `--yes-always` answers
 * - no-question: a chat file, or a plain new file next to one
 */
export type EditPolicyAnswer = 'refused' | 'person-only' | 'ask' | 'no-question';

export interface EditPolicyContext {
  readonly chatFiles: readonly string[];
  /** Read-only files (`--read`, AGENTS.md), repository-relative. */
  readonly readOnly?: readonly string[];
  /** git's configured hooks folder (core.hooksPath), repository-relative, or null when unset or outside. */
  readonly hooksDir?: string | null;
  /** Files the repository's git config includes (include.path, includeIf.*.path), repository-relative. */
  readonly gitIncludes?: readonly string[];
  /** The lint and test commands tandem may run: new files that change what they load need a person. */
  readonly commands?: readonly string[];
}

/** The file's text before (null: new) and after the edit, for files where only some changes matter (package.json). */
export interface EditContent {
  readonly before: string | null;
  readonly after: string;
}

export interface EditPolicyDecision {
  readonly answer: EditPolicyAnswer;
  /** Why, written so the model (and the user) understand it; empty for no-question. */
  readonly reason: string;
}

// Its model files are configuration too: the next run would read a reply's weak model, window or prices.
const TANDEM_CONFIG_NAMES: readonly string[] = ['.tandem.conf.yml', '.tandem.conf.yaml', '.tandem.model.settings.yml', '.tandem.model.metadata.json'];
// Folders of hook scripts (git's, husky's, lefthook's) and of installed code every tool may import.
const PERSON_ONLY_FOLDERS: readonly string[] = ['.husky', '.githooks', '.lefthook', '.lefthook-local', 'node_modules', 'site-packages'];
// Hook managers' configs: each names commands git runs on the next commit, push or checkout.
const HOOK_MANAGER_CONFIG =
  /^(?:\.pre-commit-config\.ya?ml|\.?lefthook(?:-local)?\.(?:ya?ml|json|jsonc|toml)|\.?simple-git-hooks(?:\.(?:c?js|mjs|json))?|\.overcommit\.ya?ml)$/;

/** The decision for an edit of `path` (repository-relative, posix, normalized); `created` when it does not exist yet. */
export function decideEdit(path: string, created: boolean, context: EditPolicyContext, content?: EditContent): EditPolicyDecision {
  const segments = path.split('/');
  const lower = segments.map((s) => s.toLowerCase());
  const base = lower.at(-1) ?? '';
  if (lower.includes('.git')) return refused('files inside `.git/` are never edited');
  if (lower.includes('.tandem')) return refused('files inside `.tandem/` are tandem\'s own state and are never edited');
  if (TANDEM_CONFIG_NAMES.includes(base)) return refused('tandem\'s configuration files are never edited by a reply');
  if ((context.readOnly ?? []).includes(path)) return refused(`${path} is read-only context and is never edited`);
  const sensitive =
    personOnlyReason(path, lower, base, context) ??
    commandShadowReason(path, created, { commands: context.commands ?? [], chatFiles: context.chatFiles }) ??
    (content === undefined ? null : manifestHookReason(path, content.before, content.after, context.commands ?? []));
  if (sensitive !== null) return { answer: 'person-only', reason: sensitive };
  if (context.chatFiles.includes(path)) return { answer: 'no-question', reason: '' };
  if (!created) return { answer: 'ask', reason: `${path} is not in the chat` };
  if (segments.some((s) => s.startsWith('.'))) return { answer: 'ask', reason: `${path} is a new file with a dot-named part` };
  if (besideChatFile(path, context.chatFiles)) return { answer: 'no-question', reason: '' };
  return { answer: 'ask', reason: `${path} is a new file outside the chat files' folders` };
}

function refused(reason: string): EditPolicyDecision {
  return { answer: 'refused', reason };
}

function personOnlyReason(path: string, lower: readonly string[], base: string, context: EditPolicyContext): string | null {
  const why = 'changes what runs next';
  const hooksDir = context.hooksDir ?? null;
  const example = /\.(example|sample|template)$/.test(base);
  if (base === '.env' || (base.startsWith('.env.') && !example) || base === '.envrc') return `${path} sets environment variables: it ${why}`;
  if (base === '.gitmodules') return `${path} tells git where to fetch code: it ${why}`;
  if (lower.some((s) => PERSON_ONLY_FOLDERS.includes(s))) return `${path} is a git hook script or installed code: it ${why}`;
  if (HOOK_MANAGER_CONFIG.test(base)) return `${path} configures git hooks: it ${why}`;
  const lowerPath = lower.join('/');
  if ((context.gitIncludes ?? []).some((included) => included.toLowerCase() === lowerPath)) {
    return `${path} is included by the repository's git config: it ${why}`;
  }
  if (hooksDir !== null && hooksDir !== '' && (path === hooksDir || path.startsWith(`${hooksDir.replace(/\/+$/, '')}/`))) {
    return `${path} is in git's hooks folder (${hooksDir}): it ${why}`;
  }
  return null;
}

/** In the folder of a chat file or below it; the root folder counts only for files directly in it. */
function besideChatFile(path: string, chatFiles: readonly string[]): boolean {
  const folder = posix.dirname(path);
  return chatFiles.some((chat) => {
    const chatFolder = posix.dirname(chat);
    if (chatFolder === '.') return folder === '.';
    return folder === chatFolder || folder.startsWith(`${chatFolder}/`);
  });
}
