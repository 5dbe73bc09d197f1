// Text from outside (a web page, the clipboard) made safe to show and send: no terminal escapes.

/** Removes terminal escapes and other control characters (tabs and newlines stay). */
export function withoutControlChars(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '');
}
