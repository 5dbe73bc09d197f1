// In-memory platform ports for in-process tests: a clock that moves only when told, a terminal that
// keeps what was written and has the width a test sets, a file system held in a map.
import type { Clock } from '../../src/platform/clock.js';
import type { TextFileSystem } from '../../src/platform/file-system.js';
import type { ConfinedRead, ConfinedReadOptions } from '../../src/platform/text-files.js';
import { MAX_TEXT_FILE_BYTES } from '../../src/platform/text-files.js';
import type { Terminal } from '../../src/platform/terminal.js';

export class FakeClock implements Clock {
  private ms: number;

  constructor(start: string | Date = '2026-01-02T03:04:05.000Z') {
    this.ms = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}

export class FakeTerminal implements Terminal {
  output = '';

  constructor(
    readonly isTTY: boolean,
    /** Change it to act as a resize; null: a stream that reports no width. */
    public width: number | null = 80,
  ) {}

  columns(): number | undefined {
    return this.width ?? undefined;
  }

  write(text: string): void {
    this.output += text;
  }
}

/** Files by absolute path. Reads are capped like the real ones; confinement is the real one's job. */
export class MemoryFileSystem implements TextFileSystem {
  readonly files = new Map<string, string>();
  /** When set, every append throws this error code (a full disk: 'ENOSPC'). */
  failAppends: string | null = null;

  constructor(files: Record<string, string> = {}) {
    for (const [path, text] of Object.entries(files)) this.files.set(path, text);
  }

  readText(path: string, options: ConfinedReadOptions = {}): ConfinedRead {
    const shown = options.shown ?? path;
    const text = this.files.get(path);
    if (text === undefined) return { ok: false, kind: 'missing', message: `${shown} does not exist` };
    const size = Buffer.byteLength(text);
    const maxBytes = options.maxBytes ?? MAX_TEXT_FILE_BYTES;
    if (size > maxBytes && !options.truncate) return { ok: false, kind: 'too_large', message: `${shown} is ${size} bytes, over the limit; not read` };
    return { ok: true, text: text.slice(0, maxBytes), truncated: size > maxBytes, size };
  }

  append(path: string, text: string): void {
    if (this.failAppends !== null) throw Object.assign(new Error(`${this.failAppends}: cannot write ${path}`), { code: this.failAppends });
    this.files.set(path, (this.files.get(path) ?? '') + text);
  }

  exists(path: string): boolean {
    return this.files.has(path);
  }
}
