import { ToolError } from '../../errors.js';
import type { Button } from '../../types.js';
import type { AppScope } from './apps/app.js';
import { demoApp, DEMO_SCREENS } from './apps/demo.js';
import { DEMO_PACKAGE, type DeviceProfile } from './profile.js';
import type { InstalledRecord, PhoneState } from './state.js';

/** What the apps of a phone need of it: its state, the apps' tasks and the Home button. */
export interface AppsHost {
  readonly id: string;
  readonly profile: DeviceProfile;
  readonly state: PhoneState;
  readonly now: number;
  scope(pkg: string): AppScope;
  press(button: Button): void;
}

/**
 * The virtual phone's package manager and URL handling: which apps are installed, starting and
 * stopping them, and opening a URL in the app that handles it.
 */
export class PhoneApps {
  constructor(private readonly phone: AppsHost) {}

  /** Read at each use: restoring a saved phone replaces the state. */
  private get state(): PhoneState {
    return this.phone.state;
  }

  private installedRecord(pkg: string): InstalledRecord {
    const record = this.state.installed.find((a) => a.package === pkg);
    if (!record) {
      throw new ToolError('APP_NOT_INSTALLED', `${pkg} is not installed on ${this.phone.id}; mobile_list_apps shows the installed packages, mobile_install_app installs one`);
    }
    return record;
  }

  launch(pkg: string): void {
    this.installedRecord(pkg);
    if (pkg === this.phone.profile.launcher) return this.phone.press('HOME');
    this.phone.scope(pkg);
    this.state.foreground = pkg;
    this.state.keyboardShown = false;
  }

  /** Whether it was running. */
  terminate(pkg: string): boolean {
    this.installedRecord(pkg);
    const running = pkg in this.state.tasks || this.state.foreground === pkg;
    this.stop(pkg);
    return running;
  }

  /** Ends the app's task; the launcher takes over when it was in front. */
  private stop(pkg: string): void {
    delete this.state.tasks[pkg];
    if (this.state.foreground === pkg) {
      this.state.keyboardShown = false;
      this.state.foreground = this.phone.profile.launcher;
    }
    this.phone.scope(this.phone.profile.launcher);
  }

  install(record: Omit<InstalledRecord, 'installedAt' | 'system'>): void {
    const existing = this.state.installed.find((a) => a.package === record.package);
    if (existing) {
      existing.version = record.version;
      existing.name = record.name;
    } else {
      this.state.installed.push({ ...record, system: false, installedAt: this.phone.now });
    }
    this.stop(record.package);
  }

  uninstall(pkg: string): void {
    const record = this.installedRecord(pkg);
    if (record.system) {
      throw new ToolError('PERMISSION_DENIED', `${pkg} is a system app on ${this.phone.id} and cannot be uninstalled`);
    }
    this.stop(pkg);
    this.state.installed = this.state.installed.filter((a) => a.package !== pkg);
    delete this.state.data[pkg];
  }

  clearData(pkg: string): void {
    if (this.phone.profile.platform === 'ios') {
      throw new ToolError('UNSUPPORTED', `iOS cannot clear an app's data (${pkg} on ${this.phone.id}); uninstall and reinstall the app instead`);
    }
    this.installedRecord(pkg);
    this.stop(pkg);
    delete this.state.data[pkg];
  }

  /** Opens `raw`; returns what it showed when that is not what it asked for (a link to a missing item). */
  openUrl(raw: string): string | undefined {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ToolError('INVALID_PARAMETER', `"${raw}" is not a full URL (e.g. https://example.com or mbdemo://screen/home)`);
    }
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      this.launch(this.phone.profile.browser);
      const scope = this.phone.scope(this.phone.profile.browser);
      if (scope.route.url === 'about:blank') scope.replace({ screen: 'page', url: url.href });
      else scope.push({ screen: 'page', url: url.href });
      return undefined;
    }
    if (url.protocol === 'mbdemo:') {
      // As on a phone, a scheme whose app is gone is one no app handles (the real drivers' INVALID_PARAMETER).
      if (!this.state.installed.some((a) => a.package === DEMO_PACKAGE)) {
        throw new ToolError('INVALID_PARAMETER', `no app on ${this.phone.id} handles "mbdemo:" URLs: the demo app ${DEMO_PACKAGE}, which does, is not installed (mobilebridge reset brings it back, with the rest of the factory state)`);
      }
      const scope = this.phone.scope(DEMO_PACKAGE);
      const target = demoApp.deepLink?.(url, scope);
      if (!target) {
        throw new ToolError('INVALID_PARAMETER', `${raw}: the demo app on ${this.phone.id} has no such screen; use mbdemo://screen/<name> (${DEMO_SCREENS.join(', ')}) or mbdemo://item/<n>`);
      }
      scope.resetTo(target.routes);
      if (target.dialog) scope.showDialog(target.dialog);
      this.state.foreground = DEMO_PACKAGE;
      this.state.keyboardShown = false;
      return target.landed;
    }
    throw new ToolError('INVALID_PARAMETER', `no app on ${this.phone.id} handles "${url.protocol}" URLs; use http://, https:// or mbdemo://`);
  }
}
