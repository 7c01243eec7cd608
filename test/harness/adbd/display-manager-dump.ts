import type { PanelSize } from './displays.js';

/**
 * `dumpsys display` (DisplayManagerService.dumpInternal) as Android 14 prints it, cut to what a reader
 * of the rotation meets: the logical displays of LogicalDisplayMapper.dumpLocked, each "Display <id>:"
 * with LogicalDisplay.dumpLocked's lines. mBaseDisplayInfo is the display device's info, always at
 * rotation 0 (LogicalDisplay.updateLocked); mOverrideDisplayInfo is what the window manager set
 * (setDisplayInfoOverrideFromWindowManager), logical size and rotation as shown; both carry the display's
 * power state (DisplayPowerController: OFF while the screen sleeps). DisplayInfo.toString
 * is abridged to the fields around size and rotation.
 */
export function displayManagerDump(natural: PanelSize, rotation: number, on: boolean): string {
  const info = (r: number) => {
    const [w, h] = r % 2 === 1 ? [natural.height, natural.width] : [natural.width, natural.height];
    return `DisplayInfo{"Built-in Screen", displayId 0, displayGroupId 0, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, FLAG_TRUSTED, real ${w} x ${h}, largest app ${w} x ${h}, smallest app ${w} x ${h}, appMode {id=1, width=${natural.width}, height=${natural.height}, fps=60.0}, defaultMode 1, modes [{id=1, width=${natural.width}, height=${natural.height}, fps=60.0}], rotation ${r}, state ${on ? 'ON' : 'OFF'}, type INTERNAL, uniqueId "local:4619827259835644672"}`;
  };
  return [
    'DISPLAY MANAGER (dumpsys display)',
    '  mSafeMode=false',
    '  mPendingTraversal=false',
    '',
    'LogicalDisplayMapper:',
    '    mSingleDisplayDemoMode=false',
    '',
    '    Logical Displays: size=1',
    '    Display 0:',
    '      mDisplayId=0',
    '      mIsEnabled=true',
    '      mLayerStack=0',
    '      mHasContent=true',
    `      mPrimaryDisplayDevice=Built-in Screen`,
    `      mBaseDisplayInfo=${info(0)}`,
    `      mOverrideDisplayInfo=${info(rotation)}`,
    '',
  ].join('\n');
}
