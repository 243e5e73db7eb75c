/**
 * Document formatting: the text `adec fmt` would write, as one edit over the whole document.
 * adec has one canonical layout, so the editor's tab size and spaces-or-tabs options do not
 * apply. A document with a syntax error is left as it is (no edits): its diagnostics already
 * say what to fix, and formatting around a broken construct would guess.
 */
import { formatSource } from '@adec/compiler';
import type { TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';

export function formattingEdits(document: TextDocument, path: string): TextEdit[] {
  const text = document.getText();
  const formatted = formatSource(path, text);
  if (!formatted.ok || !formatted.changed) return [];
  return [{ range: { start: document.positionAt(0), end: document.positionAt(text.length) }, newText: formatted.text }];
}
