import type { UiElement } from '../types.js';

/** Home screens and system overlays: where an agent passes through, not the app under test. */
const SYSTEM_PACKAGE = /launcher|springboard|systemui|permissioncontroller|packageinstaller|^com\.android\.settings$|^com\.apple\.Preferences$/i;

export function isSystemPackage(pkg: string): boolean {
  return SYSTEM_PACKAGE.test(pkg);
}

/**
 * Which app a recording worked in: the package that owns most of each screen the agent looked
 * at, counted per look. Where the agent ended (often the home screen) does not decide it.
 */
export class WorkedIn {
  private readonly looks: Map<string, number>;

  /** `looks` from an earlier `entries()`, so a recording restored after a restart keeps them. */
  constructor(looks: [string, number][] = []) {
    this.looks = new Map(looks);
  }

  entries(): [string, number][] {
    return [...this.looks];
  }

  note(elements: UiElement[]): void {
    const owners = new Map<string, number>();
    for (const e of elements) if (e.package) owners.set(e.package, (owners.get(e.package) ?? 0) + 1);
    const top = [...owners].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (top && !isSystemPackage(top)) this.looks.set(top, (this.looks.get(top) ?? 0) + 1);
  }

  /** The app seen most, or undefined when the agent only saw system screens. */
  get app(): string | undefined {
    return [...this.looks].sort((a, b) => b[1] - a[1])[0]?.[0];
  }
}
