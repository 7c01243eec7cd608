/** scrcpy 3.3.1 StringUtils and the strings written with it. */

/**
 * DesktopConnection.sendDeviceMeta: Build.MODEL in UTF-8, cut at 63 bytes without splitting a character
 * (StringUtils.getUtf8TruncationIndex), NUL-padded to 64.
 */
export function deviceMeta(name: string): Buffer {
  const meta = Buffer.alloc(64);
  utf8Truncated(name, 63).copy(meta);
  return meta;
}

/** StringUtils.getUtf8TruncationIndex: at most `maxBytes` of the text's UTF-8, ending on a character boundary. */
export function utf8Truncated(text: string, maxBytes: number): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return bytes;
  let len = maxBytes;
  while ((bytes[len] & 0xc0) === 0x80) len--;
  return bytes.subarray(0, len);
}
