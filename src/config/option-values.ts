// Reading a setting's value: text from a flag or the environment, or a parsed YAML value from a
// config file, checked against its row of the table; and the likely typo behind an unknown name.
import type { OptionSpec } from './option-spec.js';

/** A checked value, or a way to say what was wrong given how the caller quotes the bad input. */
export type CheckedValue = { ok: true; value: unknown } | { ok: false; describe: (shown: string) => string };

const TRUE_WORDS = ['true', 'yes', '1', 'on'];
const FALSE_WORDS = ['false', 'no', '0', 'off'];

/** "a whole number >= 0": what a setting accepts, for error lines and help. */
export function expectedOf(spec: OptionSpec): string {
  switch (spec.type) {
    case 'boolean':
      return 'true or false';
    case 'int':
      return spec.max === undefined ? `a whole number >= ${spec.min}` : `a whole number from ${spec.min} to ${spec.max}`;
    case 'enum':
      return `one of ${spec.values.join(', ')}`;
    case 'string':
      return 'a string';
    case 'string[]':
      return 'a string or a list of strings';
  }
}

function rejected(spec: OptionSpec): CheckedValue {
  if (spec.type === 'enum') {
    return { ok: false, describe: (shown) => `${shown} is not one of ${spec.values.join(', ')}` };
  }
  return { ok: false, describe: (shown) => `expected ${expectedOf(spec)}, got ${shown}` };
}

/** A value typed as text: a flag's argument or an environment variable. */
export function checkTextValue(spec: OptionSpec, raw: string): CheckedValue {
  switch (spec.type) {
    case 'boolean': {
      const word = raw.trim().toLowerCase();
      if (TRUE_WORDS.includes(word)) return { ok: true, value: true };
      if (FALSE_WORDS.includes(word)) return { ok: true, value: false };
      return rejected(spec);
    }
    case 'int': {
      const text = raw.trim();
      if (!/^[+-]?\d+$/.test(text)) return rejected(spec);
      const n = Number(text);
      if (!Number.isSafeInteger(n) || n < spec.min || (spec.max !== undefined && n > spec.max)) return rejected(spec);
      return { ok: true, value: n };
    }
    case 'enum':
      return spec.values.includes(raw) ? { ok: true, value: raw } : rejected(spec);
    case 'string':
      return { ok: true, value: raw };
    case 'string[]':
      return { ok: true, value: [raw] };
  }
}

/** A value from a YAML config file, already parsed: types must match, strings are read like text. */
export function checkConfigValue(spec: OptionSpec, value: unknown): CheckedValue {
  if (typeof value === 'string') {
    // a quoted "2048" or `yes` in YAML 1.2 is a string; read it the way the environment is read
    return checkTextValue(spec, value);
  }
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : rejected(spec);
    case 'int':
      return typeof value === 'number' ? checkTextValue(spec, String(value)) : rejected(spec);
    case 'enum':
      return rejected(spec);
    case 'string':
      return typeof value === 'number' ? { ok: true, value: String(value) } : rejected(spec);
    case 'string[]':
      if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return { ok: true, value: [...value] };
      return rejected(spec);
  }
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** The candidate closest to a mistyped name, when it is close enough to be a likely typo. */
export function closestName(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const allowed = Math.max(2, Math.floor(name.length / 3));
  return bestDistance <= allowed ? best : null;
}
