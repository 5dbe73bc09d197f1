// Builds the real repository map (git file list, tag cache, worker pool, tiktoken) behind the small
// port the session uses.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { RepoMapPort, TokenCounter } from '../coders/ports.js';
import { collectTags } from '../repomap/collect-tags.js';
import { listMapFiles } from '../repomap/list-files.js';
import { createRepoMap, findMentions, type MapRefreshMode } from '../repomap/repo-map.js';
import { loadTagCache } from '../repomap/tag-cache.js';
import { createTagsPool, defaultTagThreads } from '../repomap/tags-pool.js';
import type { EmitEvent } from '../session/events.js';

export interface RepoMapHandle extends RepoMapPort {
  /** The next get() rebuilds whatever the refresh mode says. */
  refresh(): void;
}

export interface RepoMapAdapterOptions {
  readonly root: string;
  readonly packageRoot: string;
  readonly tokens: TokenCounter;
  readonly refreshMode: MapRefreshMode;
  readonly emit: EmitEvent;
}

export function createRepoMapPort(options: RepoMapAdapterOptions): RepoMapHandle {
  const { root } = options;
  const pool = createTagsPool({ queriesDir: join(options.packageRoot, 'queries'), threads: defaultTagThreads(availableParallelism()) });
  let files: readonly string[] = [];
  let refreshNext = false;
  const map = createRepoMap({
    listFiles: async () => files,
    collectTags: async (paths) => collectTags(root, paths, { pool, cache: await loadTagCache(root) }),
    readFile: (path) => {
      try {
        return readFileSync(join(root, path), 'utf8');
      } catch {
        return undefined;
      }
    },
    countTokens: (text) => options.tokens.count(text),
    now: () => performance.now(),
    refreshMode: options.refreshMode,
  });
  return {
    async get(request) {
      files = await listMapFiles(root);
      const mentions = findMentions(request.requestText, files);
      const refresh = refreshNext;
      refreshNext = false;
      return map.get({
        chatFiles: request.chatFiles,
        readOnlyFiles: request.readOnlyFiles,
        mentionedFiles: mentions.files,
        mentionedIdents: mentions.idents,
        budget: request.budget,
        refresh,
      });
    },
    refresh() {
      refreshNext = true;
    },
  };
}
