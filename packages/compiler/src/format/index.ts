/** `adec fmt`: the canonical layout of `.adec` files (see format-source.ts). */
export { commentTexts, formatSource, type FormatResult } from './format-source.js';
export { MAX_LINE_WIDTH } from './layout.js';
