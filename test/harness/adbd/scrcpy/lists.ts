/** The lists scrcpy 3.3.1's LogUtils builds (for list_* options and for the errors that name what exists). */

export interface EncoderInfo {
  /** VideoCodec/AudioCodec name: h264, h265, av1, opus, aac, flac, raw. */
  codec: string;
  /** MediaCodecInfo.getName(). */
  name: string;
  /** LogUtils.getHwCodecType: isSoftwareOnly, isHardwareAccelerated, else hybrid. */
  kind: 'sw' | 'hw' | 'hybrid';
}

const API_29_ANDROID_10 = 29;
/** LogUtils.buildEncoderListMessage pads each line to this column (counting its leading line break) before the type. */
const TYPE_COLUMN = 70;

/**
 * LogUtils.buildEncoderListMessage: `List of video encoders:` then one line per encoder, the codec and
 * encoder options as the client takes them; from Android 10 padded and followed by `(sw)`/`(hw)`/`(hybrid)`.
 */
export function encoderListMessage(type: 'video' | 'audio', encoders: EncoderInfo[], api: number): string {
  let message = `List of ${type} encoders:`;
  for (const encoder of encoders) {
    let line = `\n    --${type}-codec=${encoder.codec} --${type}-encoder=${encoder.name}`;
    if (api >= API_29_ANDROID_10) line = `${line.padEnd(TYPE_COLUMN, ' ')} (${encoder.kind})`;
    message += line;
  }
  return message;
}

/** LogUtils.buildDisplayListMessage: each display id with DisplayInfo.getSize(), `(none)` when there are none. */
export function displayListMessage(displays: { id: number; width: number; height: number }[]): string {
  if (!displays.length) return 'List of displays:\n    (none)';
  return `List of displays:${displays.map((d) => `\n    --display-id=${d.id}    (${d.width}x${d.height})`).join('')}`;
}

/**
 * The emulated phone's video encoders: AOSP's software AVC encoder (Codec2 from Android 10, OMX before),
 * which ffmpeg's libx264 stands in for. Without ffmpeg (or with the noEncoder fault) there are none.
 */
export function phoneVideoEncoders(hasEncoder: boolean, api: number): EncoderInfo[] {
  if (!hasEncoder) return [];
  return [{ codec: 'h264', name: api >= API_29_ANDROID_10 ? 'c2.android.avc.encoder' : 'OMX.google.h264.encoder', kind: 'sw' }];
}

/**
 * Server.internalMain with a list_* option (Options.getList): the lists at INFO, then it returns without
 * binding a socket. The emulated phone has no camera, and no app list for scrcpy: those are not emulated.
 */
export async function printLists(
  lists: { encoders: boolean; displays: boolean; cameras: boolean; cameraSizes: boolean; apps: boolean },
  videoEncoders: EncoderInfo[],
  displayList: string,
  api: number,
  info: (message: string) => Promise<void>,
): Promise<void> {
  if (lists.encoders) {
    await info(encoderListMessage('video', videoEncoders, api));
    // Audio capture is not emulated, and neither are audio encoders.
    await info(encoderListMessage('audio', [], api));
  }
  if (lists.displays) await info(displayList);
  if (lists.cameras || lists.cameraSizes || lists.apps) throw new Error('list_cameras, list_camera_sizes and list_apps are not emulated');
}
