/** What a screen subscription can carry: picture formats and where the pictures come from. */
export const IMAGE_FORMATS = ['jpeg', 'webp', 'png'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
/** Everything a frame may carry: the image formats plus the device's own H.264 video (SPEC §9). */
export const FRAME_FORMATS = [...IMAGE_FORMATS, 'h264'] as const;
export type FrameFormat = (typeof FRAME_FORMATS)[number];
/** Where a subscription's frames come from (SPEC §9). */
export const STREAM_SOURCES = ['scrcpy', 'wda-mjpeg', 'screencap', 'screenshot', 'virtual'] as const;
export type StreamSource = (typeof STREAM_SOURCES)[number];
