// A scripted chat for measuring prompt-cache reuse: one tandem process, requests fed on stdin
// (edits, questions, a request naming an identifier defined outside the chat, the map on), against
// the fake server, whose replies are written against the chat file as it will be at that point.
// Shared by `npm run bench` (section cache) and its test, which checks every edit lands.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../test/support/fake-openai-server.js';

const run = promisify(execFile);

export const CHAT_FILE = 'app/orders.py';
export const MAIN_MODEL = 'bench-main';
export const WEAK_MODEL = 'bench-weak';

/** About 5k tokens of Python: the size where the old layout reused 8-13% of each prompt. */
function ordersFile(): string {
  const parts = ['"""Order processing steps."""', '', 'from lib.invoice import format_invoice_line', ''];
  parts.push('def compute_total(items):', '    return sum(item.price * item.quantity for item in items)', '');
  for (let i = 0; i < 120; i++) {
    parts.push(`def order_step_${i}(order):`, `    value = order.get("step_${i}", ${i})`, `    return value * ${(i % 7) + 1}`, '');
  }
  return `${parts.join('\n')}\n`;
}

function libraryFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'lib/__init__.py': '',
    'lib/invoice.py':
      'def format_invoice_line(item):\n    return f"{item.name}: {item.price:.2f}"\n\n\ndef invoice_total(lines):\n    return len(lines)\n',
  };
  for (let i = 0; i < 30; i++) {
    const next = (i + 1) % 30;
    files[`lib/module_${String(i).padStart(2, '0')}.py`] =
      `from lib.module_${String(next).padStart(2, '0')} import helper_${next}\n\n\n` +
      `def helper_${i}(value):\n    return helper_${next}(value) + ${i}\n\n\n` +
      `class Handler${i}:\n    def handle(self, request):\n        return helper_${i}(request)\n`;
  }
  return files;
}

function edit(search: string[], replace: string[], note: string): string {
  return [note, '', CHAT_FILE, '```python', '<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE', '```', ''].join('\n');
}

export interface ChatStep {
  /** The line typed into tandem. */
  readonly input: string;
  /** The main model's reply; null for a slash command that sends nothing. */
  readonly reply: string | null;
  /** Files the reply edits (one `edit` event each, however many blocks; each must land). */
  readonly edits: number;
}

/** Nine model requests: five with edits (the later ones building on the earlier), four without. */
export const CHAT_STEPS: readonly ChatStep[] = [
  {
    input: 'add a docstring to compute_total',
    reply: edit(['def compute_total(items):'], ['def compute_total(items):', '    """The order total: price times quantity, summed."""'], 'Adding the docstring.'),
    edits: 1,
  },
  { input: 'what does order_step_4 return for an empty order?', reply: 'It returns 4 * 5 = 20, since the default is 4.', edits: 0 },
  {
    input: 'make order_step_10 default to zero',
    reply: edit(['    value = order.get("step_10", 10)'], ['    value = order.get("step_10", 0)'], 'Changing the default.'),
    edits: 1,
  },
  { input: 'how is format_invoice_line used here?', reply: 'It is imported at the top but not called yet.', edits: 0 },
  {
    input: 'use format_invoice_line in compute_total to log each item',
    reply: edit(
      ['    """The order total: price times quantity, summed."""', '    return sum(item.price * item.quantity for item in items)'],
      ['    """The order total: price times quantity, summed."""', '    for item in items:', '        print(format_invoice_line(item))', '    return sum(item.price * item.quantity for item in items)'],
      'Logging each line.',
    ),
    edits: 1,
  },
  { input: 'is Handler3 related to the orders?', reply: 'No, Handler3 handles web requests in the lib package.', edits: 0 },
  {
    input: 'rename order_step_20 to order_step_twenty and fix its caller',
    reply: [
      edit(['def order_step_20(order):'], ['def order_step_twenty(order):'], 'Renaming.'),
      edit(['    value = order.get("step_21", 21)'], ['    value = order.get("step_21", 21) or order_step_twenty(order)'], 'Using it in the next step.'),
    ].join('\n'),
    edits: 1,
  },
  { input: 'summarize what we changed', reply: 'A docstring, a default, logging in compute_total, and a rename.', edits: 0 },
  {
    input: 'make order_step_119 return a float',
    reply: edit(['    value = order.get("step_119", 119)', '    return value * 1'], ['    value = order.get("step_119", 119)', '    return float(value * 1)'], 'Returning a float.'),
    edits: 1,
  },
];

export interface ChatRepo {
  readonly root: string;
}

export async function chatRepo(): Promise<ChatRepo> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-cache-'));
  const files: Record<string, string> = { [CHAT_FILE]: ordersFile(), ...libraryFiles() };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  const git = (...args: string[]) => run('git', args, { cwd: root });
  await git('init', '-q');
  await git('config', 'user.name', 'Bench');
  await git('config', 'user.email', 'bench@example.com');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'initial');
  return { root };
}

/** A fake server scripted with the chat's replies (and commit messages for the weak model). */
export async function chatServer(): Promise<FakeOpenAIServer> {
  const replies = CHAT_STEPS.flatMap((step) => (step.reply === null ? [] : [textReply(step.reply)]));
  return startFakeOpenAI({ replies: { [MAIN_MODEL]: replies }, fallback: textReply('bench: change') });
}

/** tandem's arguments for the chat: JSON events, no questions, the map on. */
export function chatArgs(serverUrl: string): string[] {
  return ['--json', '--yes-always', '--no-stream', '--base-url', serverUrl, '--api-key', 'bench', '--model', MAIN_MODEL,
    '--weak-model', WEAK_MODEL, '--map-tokens', '1024', '--context-window', '128000', CHAT_FILE];
}

export function chatStdin(): string {
  return `${CHAT_STEPS.map((step) => step.input).join('\n')}\n`;
}

export interface PromptMessage {
  readonly role: string;
  readonly content: string;
}

/** The prompt as a provider's cache sees it: one string, message by message. */
export function promptText(messages: readonly PromptMessage[]): string {
  return messages.map((m) => `<|${m.role}|>\n${m.content}\n`).join('');
}

/** Characters at the start of `next` that repeat `previous`. */
export function sharedPrefixLength(previous: string, next: string): number {
  const max = Math.min(previous.length, next.length);
  let i = 0;
  while (i < max && previous.charCodeAt(i) === next.charCodeAt(i)) i++;
  return i;
}

export interface RequestReuse {
  readonly promptTokens: number;
  /** Tokens of the prefix shared with the previous request (0 for the first). */
  readonly reusedTokens: number;
}

/** Per request: prompt tokens and how many repeat the previous request's prompt from its first token. */
export function promptReuse(prompts: readonly string[], count: (text: string) => number): RequestReuse[] {
  return prompts.map((prompt, i) => {
    const shared = i === 0 ? 0 : sharedPrefixLength(prompts[i - 1]!, prompt);
    return { promptTokens: count(prompt), reusedTokens: shared === 0 ? 0 : count(prompt.slice(0, shared)) };
  });
}
