// The edit formats: how a model writes its edits in a reply. The one list of them lives here, in the
// lowest folder that names them (each model's settings pick a default format); the parsers, coders,
// option table and eval derive theirs from it.

/** Formats whose replies carry edits; each has a parser in edits/. */
export const EDIT_FORMATS = ['diff', 'diff-fenced', 'whole', 'udiff'] as const;
export type EditFormat = (typeof EDIT_FORMATS)[number];

/** What a chat can run with: an edit format, or `ask` (answers only, no edits). */
export const CODER_FORMATS = [...EDIT_FORMATS, 'ask'] as const;
export type CoderFormat = (typeof CODER_FORMATS)[number];

export function isEditFormat(name: string): name is EditFormat {
  return (EDIT_FORMATS as readonly string[]).includes(name);
}
