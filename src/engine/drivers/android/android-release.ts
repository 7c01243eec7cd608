/**
 * Whether an Android release string (ro.build.version.release, or scrcpy's log: "6.0.1", "14") names
 * a release before `major`. A preview's codename is not a number and counts as new: previews come
 * after every release these checks are about.
 */
export function releaseBefore(release: string, major: number): boolean {
  const m = /^(\d+)/.exec(release.trim());
  return m !== null && Number(m[1]) < major;
}
