// `ask`: answers about the code, never edits. A chat mode, and an `--edit-format` choice as in Aider.
import { defineCoder } from '../coder.js';

export const askCoder = defineCoder({ name: 'ask', editFormatChoice: true, chatMode: 'discuss the code; the model makes no edits' });
