/** What one scrcpy control message can carry: a point in video pixels, text in pieces of limited size. */

/**
 * One device coordinate in video pixels. PositionMapper maps back with (int)(v × device / video), so a
 * point on the screen's last row or column that rounds up to the video size itself would land one pixel
 * past the screen (2399 of 2400 at half size: 1199.5 → 1200 → 2400); a point on the screen stays inside
 * the video. One outside the screen is sent as it is (the server does not check either).
 */
export function toVideo(value: number, deviceSide: number, videoSide: number): number {
  const scaled = Math.round((value * videoSide) / deviceSide);
  return value >= 0 && value < deviceSide ? Math.min(scaled, videoSide - 1) : scaled;
}

/** Pieces of at most `maxBytes` of UTF-8 each, cut between characters (never inside a surrogate pair). */
export function* utf8Chunks(text: string, maxBytes: number): Generator<string> {
  let piece = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxBytes) {
      yield piece;
      piece = '';
      bytes = 0;
    }
    piece += char;
    bytes += size;
  }
  if (piece) yield piece;
}
