// A session log may be planted or committed by a stranger: every line must have the shape tandem
// writes, with only the roles tandem writes, before --resume believes any of it.

/** Roles tandem records; a `system` message in a log would be a stranger's instruction. */
const ROLES: ReadonlySet<string> = new Set(['user', 'assistant']);

type Check = (value: Record<string, unknown>) => string | null;

const isString = (v: unknown): v is string => typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

function isMessage(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const { role, content } = v as Record<string, unknown>;
  return isString(role) && ROLES.has(role) && isString(content);
}

function isLayout(v: unknown): boolean {
  return (
    isRecord(v) &&
    isString(v['sent']) &&
    typeof v['rebuilt'] === 'boolean' &&
    Array.isArray(v['files']) &&
    v['files'].every((f) => isRecord(f) && isString(f['path']) && isString(f['text']))
  );
}

const CHECKS: Readonly<Record<string, Check>> = {
  meta: (v) =>
    ['id', 'version', 'created', 'model', 'editFormat'].every((k) => isString(v[k])) && isStringList(v['files']) && isStringList(v['readOnly'])
      ? null
      : 'a meta entry needs id, version, created, model, editFormat (strings) and files, readOnly (lists of names)',
  message: (v) =>
    !isMessage(v)
      ? 'a message entry needs role user or assistant and a text content'
      : v['layout'] === undefined || (v['role'] === 'user' && isLayout(v['layout']))
        ? null
        : "a message entry's layout needs sent (text), files (path, text) and rebuilt (true or false)",
  amend: (v) => (isString(v['content']) ? null : 'an amend entry needs a text content'),
  files: (v) => (isStringList(v['chat']) && isStringList(v['readOnly']) ? null : 'a files entry needs chat and readOnly lists of names'),
  summary: (v) =>
    Array.isArray(v['messages']) && v['messages'].every(isMessage) && Number.isInteger(v['replaced']) && (v['replaced'] as number) >= 0
      ? null
      : 'a summary entry needs messages (role user or assistant) and a count replaced',
  clear: () => null,
  context: (v) =>
    Array.isArray(v['pages']) &&
    v['pages'].every((p) => isRecord(p) && isString(p['url']) && isString(p['text'])) &&
    Array.isArray(v['images']) &&
    v['images'].every((i) => isRecord(i) && isString(i['name']) && isString(i['absolutePath']) && isString(i['digest']))
      ? null
      : 'a context entry needs pages (url, text) and images (name, absolutePath, digest)',
  event: (v) => (typeof v['event'] === 'object' && v['event'] !== null && !Array.isArray(v['event']) ? null : 'an event entry needs an event object'),
};

/** null when `value` has the shape of an entry tandem writes; otherwise what is wrong with it, in one line. */
export function logEntryProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const entry = value as Record<string, unknown>;
  const type = entry['type'];
  if (!isString(type)) return 'no entry type';
  const check = CHECKS[type];
  if (!check) return `unknown entry type ${JSON.stringify(type).slice(0, 40)}`;
  return check(entry);
}
