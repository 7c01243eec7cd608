/**
 * Reads a request body's bytes, up to `maxBytes`. Answers `undefined` when it is larger,
 * judged by Content-Length when one is given and by the bytes read otherwise (chunked uploads,
 * `curl -T -`, a fetch with a stream body), so an oversize body is refused without being buffered.
 * An absent body is no bytes.
 */
export async function readCappedBody(request: Request, maxBytes: number): Promise<Buffer | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !request.headers.has('transfer-encoding') && Number(declared) > maxBytes) return undefined;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
