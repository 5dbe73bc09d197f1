// The one placeholder filler for prompt texts: `{name}` replaced by its value, in one pass (a value is
// never searched for placeholders itself). Only the names below are placeholders; any other `{word}`
// is literal text (an f-string in an example), as prompts/README.md says.

/** Every placeholder a prompt may hold. */
export const PLACEHOLDERS = [
  'fence', 'platform', 'files', 'changes', 'definitions', 'pages', 'names', 'map', 'summary', 'plan', 'docs', 'comments', 'details', 'command', 'problems',
] as const;

export type PlaceholderName = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Partial<Record<PlaceholderName, string>>;

const KNOWN: ReadonlySet<string> = new Set(PLACEHOLDERS);

/**
 * Fills `text`'s placeholders from `values`. A value for a name that is no placeholder, or a
 * placeholder in the text without a value, is a bug in tandem (a prompt and its caller disagree) and
 * throws, rather than sending the model a prompt with a hole or a stray `{details}` in it.
 */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  for (const name of Object.keys(values)) {
    if (!KNOWN.has(name)) throw new Error(`unknown placeholder {${name}}: not one of ${PLACEHOLDERS.join(', ')}`);
  }
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!KNOWN.has(name)) return whole;
    const value = values[name as PlaceholderName];
    if (value === undefined) throw new Error(`placeholder {${name}} has no value in: ${text.slice(0, 80)}`);
    return value;
  });
}
