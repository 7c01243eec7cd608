import type { CallContext } from '../../../src/engine/driver.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import { ToolError } from '../../../src/engine/errors.js';
import type { InterfaceOrientation } from './emulated-capture.js';
import { WdaFailure } from './wda-failure.js';
import type { WdaFaults } from './wda-faults.js';

/*
 * GET and POST /orientation (appium/WebDriverAgent FBOrientationCommands.m) over the virtual phone. The names are
 * FBWDOrientationValues, upper-cased: "LANDSCAPE" sets UIDeviceOrientationLandscapeLeft, which the app follows as
 * UIInterfaceOrientationLandscapeRight (XCUIDevice+FBRotation.m FBInterfaceOrientationFromDeviceOrientation);
 * "UIA_DEVICE_ORIENTATION_LANDSCAPERIGHT" the other side. Read back, both sides are "LANDSCAPE" (_wdOrientationsMapping).
 * The virtual phone has no upside-down portrait.
 */
export class EmulatedOrientation {
  /**
   * Which way the phone lies while the virtual phone is in landscape. Taps and element frames do not depend on it
   * (both are in the app's interface orientation); XCTest's portrait-stored screenshots do (emulated-capture.ts).
   */
  side: 'landscapeLeft' | 'landscapeRight' = 'landscapeRight';

  constructor(
    private readonly device: VirtualDevice,
    private readonly faults: WdaFaults,
  ) {}

  /** XCUIApplication.interfaceOrientation of the app in front. */
  get interfaceOrientation(): InterfaceOrientation {
    return this.device.orientation === 'landscape' ? this.side : 'portrait';
  }

  /** handleGetOrientation: an interface orientation outside its mapping (UIInterfaceOrientationUnknown) maps to nil → null. */
  read(): string | null {
    if (this.faults.unknownOrientation) return null;
    return this.device.orientation === 'landscape' ? 'LANDSCAPE' : 'PORTRAIT';
  }

  /**
   * handleSetOrientation: XCUIDevice+FBRotation.m sets the device orientation, then checks the app's interface
   * orientation followed; an app that cannot take it stays, and WDA answers "Unable To Rotate Device".
   */
  async set(value: unknown, ctx: CallContext): Promise<null> {
    const o = String(value ?? '').toUpperCase();
    const side = o === 'LANDSCAPE' ? 'landscapeRight' : o === 'UIA_DEVICE_ORIENTATION_LANDSCAPERIGHT' ? 'landscapeLeft' : undefined;
    if (o !== 'PORTRAIT' && !side) throw new WdaFailure('unknown error', 500, 'Unable To Rotate Device');
    if (side && this.faults.portraitOnly?.includes(this.device.foregroundPackage)) throw new WdaFailure('unknown error', 500, 'Unable To Rotate Device');
    try {
      await this.device.setOrientation(side ? 'landscape' : 'portrait', ctx);
    } catch (err) {
      // The virtual iPhone's home screen keeps portrait, as SpringBoard does on a real one.
      if (err instanceof ToolError && err.code === 'UNSUPPORTED') throw new WdaFailure('unknown error', 500, 'Unable To Rotate Device');
      throw err;
    }
    if (side) this.side = side;
    return null;
  }
}
