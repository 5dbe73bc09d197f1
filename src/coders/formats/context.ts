// `context`: the model names the files a request needs, and the session offers to add each one it names.
import { defineCoder } from '../coder.js';

// prompts/context/ holds the context wrappers every request shares, so this mode's own are in context-mode/.
export const contextCoder = defineCoder({
  name: 'context',
  promptFolder: 'context-mode',
  chatMode: 'the model names the files a request needs and tandem offers to add them; no edits',
});
