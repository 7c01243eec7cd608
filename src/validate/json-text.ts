/** Scanning JSON text that the native parser accepted, without building values. */

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes. */
export function isEscaped(text: string, at: number): boolean {
  let slashes = 0;
  while (text.charCodeAt(at - 1 - slashes) === 92) slashes++;
  return slashes % 2 === 1;
}

/** Index just past the string whose opening quote is at `open`. */
export function skipString(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (isEscaped(text, close)) close = text.indexOf('"', close + 1);
  return close + 1;
}
