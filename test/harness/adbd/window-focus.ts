/**
 * The focus lines of `dumpsys window`: from Android 10 each DisplayContent.dump (the `displays`
 * section) prints "mCurrentFocus=Window{<hash> u<user> <title>}" and "mFocusedApp=ActivityRecord{…}";
 * before, WindowManagerService's window list (the `windows` section) prints them, the focused app as
 * its AppWindowToken. An activity's window is titled by its component; the lock screen is the
 * system's StatusBar window (NotificationShade from Android 12).
 */
export function windowFocusLines(section: string, sdk: number, front: { component: string; user: number; locked: boolean }): string {
  const inDisplays = sdk >= 29;
  if (section !== (inDisplays ? 'displays' : 'windows')) return '';
  const [pkg, cls] = front.component.split('/');
  const title = front.locked ? (sdk >= 31 ? 'NotificationShade' : 'StatusBar') : `${pkg}/${cls.startsWith('.') ? pkg + cls : cls}`;
  const record = `ActivityRecord{3c4d5e u${front.user} ${front.component} t7}`;
  const app = inDisplays ? record : `AppWindowToken{8aa5b2c token=Token{9c1e2f ${record}}}`;
  return `  mCurrentFocus=Window{5a8a4f1 u${front.user} ${title}}\n  mFocusedApp=${app}\n`;
}
