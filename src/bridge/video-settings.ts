/** How live video behaves (`serve` options and the bridge's defaults), and what its stats report. */

/** Tunables of live video; the bridge's defaults are in `VIDEO_DEFAULTS`. */
export interface VideoSettings {
  /** False: never open device video (`serve --no-video`); subscribers get screenshots. */
  enabled: boolean;
  /** Longest side the device encoder should produce. */
  maxSize: number;
  /** How long the stream outlives its last subscriber (a reload should not restart the encoder). */
  graceMs: number;
  /** Budget of the late-joiner cache per device. */
  gopCacheBytes: number;
  /** A subscriber with more than this queued in its socket is skipped to the next key frame. */
  maxQueuedBytes: number;
  /** A subscriber waits at most this long for video to start before it is given screenshots. */
  startTimeoutMs: number;
  /** First retry after a failure; doubled per failure up to `retryMaxMs`. */
  retryMs: number;
  retryMaxMs: number;
}

export const VIDEO_DEFAULTS: VideoSettings = {
  enabled: true,
  maxSize: 1200,
  graceMs: 5000,
  gopCacheBytes: 8 * 1024 * 1024,
  maxQueuedBytes: 1024 * 1024,
  startTimeoutMs: 4000,
  retryMs: 5000,
  retryMaxMs: 60_000,
};

export interface VideoStats {
  state: 'idle' | 'starting' | 'live' | 'down';
  starts: number;
  failures: number;
  packets: number;
  bytes: number;
  sent: number;
  /** Packets not sent to a subscriber because it fell behind or waited for a key frame. */
  skipped: number;
  /** JPEG pictures dropped because they were the same as the one before (a still screen). */
  unchanged: number;
  /** The frame rate the device was last asked for. */
  maxFps: number;
  keyRequests: number;
  cacheBytes: number;
  reason?: string;
}
