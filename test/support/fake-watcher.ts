// A file watcher run by hand for in-process tests: the test says which events happened, and reads
// back which paths the watcher was asked to include.
import type { WatchEvent, WatchFiles, WatchOptions } from '../../src/platform/file-watcher.js';

export interface FakeWatcher {
  readonly watchFiles: WatchFiles;
  /** Reports an event as the real watcher would (after its include check for files). */
  emit(event: WatchEvent): void;
  /** What the running watch would include. */
  includes(path: string, directory?: boolean): boolean;
  readonly running: boolean;
}

export function createFakeWatcher(): FakeWatcher {
  let options: WatchOptions | null = null;
  return {
    watchFiles: async (given) => {
      options = given;
      return {
        close: async () => {
          options = null;
        },
      };
    },
    emit(event) {
      if (!options) return;
      if (event.kind === 'file' && !options.include(event.path, false)) return;
      options.onEvent(event);
    },
    includes: (path, directory = false) => options?.include(path, directory) ?? false,
    get running() {
      return options !== null;
    },
  };
}
