// AGENTS.md files from the repository root down to the working folder, root first, cut to a size limit.
// They guide the model as read-only text; they never change tandem's settings or permissions.
import { join, relative, sep } from 'node:path';
import { readConfinedText } from '../platform/text-files.js';
import type { Instruction } from '../session/session.js';
import { posixRelative } from '../platform/repo-path.js';

const INSTRUCTION_FILE = 'AGENTS.md';
/** Each instruction file is cut to this many characters (about 8k tokens). */
const MAX_INSTRUCTION_CHARS = 32_000;

function folderChain(root: string, cwd: string): string[] {
  const rel = relative(root, cwd);
  if (rel.startsWith('..')) return [root];
  const parts = rel === '' ? [] : rel.split(sep);
  return [root, ...parts.map((_, i) => join(root, ...parts.slice(0, i + 1)))];
}

export function readInstructions(root: string, cwd: string, limit = MAX_INSTRUCTION_CHARS): { instructions: Instruction[]; notes: string[] } {
  const instructions: Instruction[] = [];
  const notes: string[] = [];
  for (const folder of folderChain(root, cwd)) {
    const file = join(folder, INSTRUCTION_FILE);
    const name = posixRelative(root, file);
    // Confined like chat files; at most 4 bytes a character are read, so /dev/zero or a huge file cannot fill memory.
    const read = readConfinedText(file, { root, maxBytes: limit * 4, truncate: true, shown: name });
    if (!read.ok) {
      if (read.kind !== 'missing') notes.push(read.message);
      continue;
    }
    let text = read.text;
    if (text.length > limit || read.truncated) {
      const shownLimit = limit.toLocaleString('en-US');
      const size = read.truncated ? `${read.size.toLocaleString('en-US')} bytes, more than ${shownLimit}` : text.length.toLocaleString('en-US');
      notes.push(`${name} is ${size} characters; only the first ${shownLimit} are sent.`);
      text = `${text.slice(0, limit)}\n\n[... ${name} was cut here: it is longer than ${limit} characters ...]\n`;
    }
    instructions.push({ name, text });
  }
  return { instructions, notes };
}
