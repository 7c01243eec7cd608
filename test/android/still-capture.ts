import type { AndroidRig } from './setup.js';

/**
 * A capture taken while the phone's screen stood still, and the phone's pixels then. The screen
 * changes by itself (the status bar's clock turns every minute, an app settles), so a capture is
 * compared with the phone only when the phone showed the same before and after it; a few tries.
 */
export async function stillCapture<T>(rig: AndroidRig, capture: () => Promise<T>): Promise<{ shot: T; phone: Buffer }> {
  let last: { shot: T; phone: Buffer } | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = Buffer.from((await rig.phone.phone.screenRgba()).data);
    const shot = await capture();
    const phone = (await rig.phone.phone.screenRgba()).data;
    last = { shot, phone };
    if (before.equals(phone)) break;
  }
  return last!;
}
