// `udiff`: unified diffs whose hunks are matched by their text, not their line numbers.
import { parseUdiff } from '../../edits/parse-udiff.js';
import { defineCoder } from '../coder.js';

export const udiffCoder = defineCoder({ name: 'udiff', parse: parseUdiff });
