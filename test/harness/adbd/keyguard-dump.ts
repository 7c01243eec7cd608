import type { PhoneQuirks } from './phone-quirks.js';

/**
 * The first emulated release whose KeyguardServiceDelegate prints KeyguardReportedState. The release
 * that layout first shipped in is not pinned: the copy read for it (muhomorr/platform_frameworks_base-15,
 * despite its name) comes from a tree whose Build.java already defines BAKLAVA_1 (Android 16 QPR2) and,
 * behind a flag, CINNAMON_BUN; a later variant ("userId=", "systemReady=", with a KeyguardState.aidl
 * dated 2026) is in PixelOS-17's and VoltageOS's trees; the stored copies that still hold a
 * KeyguardServiceWrapper (crDroid's, yaap's) print KeyguardState. 16 is the earliest it can be. The
 * driver tells the layouts apart by their lines, never by the release.
 */
const REPORTED_STATE_FROM_RELEASE = 16;

/**
 * `dumpsys window policy` as far as lock state goes: PhoneWindowManager.dump's KeyguardServiceDelegate
 * block, with the policy's indentation, in the layout of the release (`major`).
 */
export function windowPolicyDump(q: PhoneQuirks, major: number): string {
  const delegate = major >= REPORTED_STATE_FROM_RELEASE ? reportedStateBlock(q) : keyguardStateBlock(q);
  return ['WINDOW MANAGER POLICY STATE (dumpsys window policy)', '    mSafeMode=false mSystemReady=true mSystemBooted=true', '    KeyguardServiceDelegate', ...delegate, ''].join('\n');
}

/**
 * Up to Android 15: the delegate's cached KeyguardState, then KeyguardServiceWrapper.dump's
 * KeyguardStateMonitor block (mIsShowing, mSimSecure, mInputRestricted, mTrusted, mCurrentUserId).
 */
function keyguardStateBlock(q: PhoneQuirks): string[] {
  return [
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
  ];
}

/**
 * KeyguardServiceDelegate.dump once KeyguardStateMonitor was folded into it: KeyguardReportedState
 * (showing, inputRestricted, trusted, simSecure, deviceHasKeyguard) mixed with the system-side
 * KeyguardState, one field a line, no "secure=" and no nested block.
 */
function reportedStateBlock(q: PhoneQuirks): string[] {
  return [
    `      showing=${q.locked}`,
    `      inputRestricted=${q.locked}`,
    `      occluded=${q.lockOccluded}`,
    `      trusted=${q.lockTrusted}`,
    '      simSecure=false',
    '      dreaming=false',
    '      systemIsReady=true',
    '      deviceHasKeyguard=true',
    '      enabled=true',
    '      currentUser=0',
    '      bootCompleted=true',
    `      screenState=${q.screenOff ? 'SCREEN_STATE_OFF' : 'SCREEN_STATE_ON'}`,
    `      interactiveState=${q.screenOff ? 'INTERACTIVE_STATE_SLEEP' : 'INTERACTIVE_STATE_AWAKE'}`,
  ];
}

/**
 * `dumpsys lock_settings` up to its user states (LockSettingsService.dumpInternal, read in
 * GrapheneOS/platform_frameworks_base-15; the keystore keys, storage, strong auth and reboot escrow
 * sections that follow are left out: nothing reads them). One user, 0, whose credential follows
 * `secureLock` (a PIN: quality PASSWORD_QUALITY_NUMERIC, a Gatekeeper SID); IsLockScreenDisabled is
 * printed only for CREDENTIAL_TYPE_NONE, false for a swipe lock.
 */
export function lockSettingsDump(q: PhoneQuirks): string {
  const pin = q.secureLock;
  return [
    'Current lock settings service state:',
    '',
    'User State:',
    '  User 0',
    '    LSKF-based SP protector ID: 3f2a9c61d0b4e857',
    '    LSKF last changed: 2025-06-10 09:41:27 (previous protector: 8c1e5b7a2f903d46)',
    `    SID: ${pin ? '5d8e2b19c4a07f63' : '0000000000000000'}`,
    `    Quality: ${pin ? 131072 : 0}`,
    `    CredentialType: ${pin ? 'PIN' : 'NONE'}`,
    ...(pin ? [] : ['    IsLockScreenDisabled: false']),
    '    SeparateChallenge: false',
    '    Metrics: known',
    '',
    '',
  ].join('\n');
}
