import type { PhoneQuirks } from './phone-quirks.js';

/**
 * `dumpsys window policy` as far as lock state goes: PhoneWindowManager.dump's KeyguardServiceDelegate
 * block (its cached KeyguardState) and, inside it, KeyguardServiceWrapper's KeyguardStateMonitor block
 * (mIsShowing, mSimSecure, mInputRestricted, mTrusted, mCurrentUserId), with the policy's indentation.
 */
export function windowPolicyDump(q: PhoneQuirks): string {
  return [
    'WINDOW MANAGER POLICY STATE (dumpsys window policy)',
    '    mSafeMode=false mSystemReady=true mSystemBooted=true',
    '    KeyguardServiceDelegate',
    `      showing=${q.locked}`,
    `      inputRestricted=${q.locked}`,
    `      occluded=${q.lockOccluded}`,
    `      secure=${q.secureLock}`,
    '      dreaming=false',
    `      screenState=${q.screenOff ? 'SCREEN_STATE_OFF' : 'SCREEN_STATE_ON'}`,
    '      KeyguardStateMonitor',
    `        mIsShowing=${q.locked}`,
    `        mSimSecure=false`,
    `        mInputRestricted=${q.locked}`,
    `        mTrusted=${q.lockTrusted}`,
    '        mCurrentUserId=0',
    '',
  ].join('\n');
}
