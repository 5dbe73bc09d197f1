// `diff-fenced`: SEARCH/REPLACE blocks with the path inside the fence (models that drop a path above it).
import { parseSearchReplace } from '../../edits/parse-search-replace.js';
import { defineCoder } from '../coder.js';

// Only the prompts differ from `diff`: the one search/replace parser reads both layouts.
export const diffFencedCoder = defineCoder({ name: 'diff-fenced', parse: parseSearchReplace });
