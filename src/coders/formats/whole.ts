// `whole`: every changed file in full, its path above a fenced listing.
import { parseWhole } from '../../edits/parse-whole.js';
import { defineCoder } from '../coder.js';

export const wholeCoder = defineCoder({ name: 'whole', parse: parseWhole });
