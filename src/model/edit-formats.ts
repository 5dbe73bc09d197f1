// The names of the edit formats whose replies carry edits, as model settings may name them (a model's
// default format, a user's model settings file). model/ sits below coders/, so it cannot ask the coder
// registry; test/coders/registry.test.ts keeps this list equal to the registry's formats that edit.
// Every other list of formats (the option table, /chat-mode, the eval) comes from coders/registry.ts.

export const EDIT_FORMATS = ['diff', 'diff-fenced', 'whole', 'udiff'] as const;
export type EditFormat = (typeof EDIT_FORMATS)[number];

export function isEditFormat(name: string): name is EditFormat {
  return (EDIT_FORMATS as readonly string[]).includes(name);
}
