import { button, column, row, text, type Action, type View } from '../view.js';
import { shownOrientation } from '../compose.js';
import type { AppBehaviour, Screen } from './app.js';

const act = (name: string, arg?: string | number): Action => (arg === undefined ? { do: name } : { do: name, arg });

/** Home screen: a grid of the installed apps; tapping an icon launches it. */
export const launcherApp: AppBehaviour = {
  start: () => ({ screen: 'home' }),
  screen(app) {
    const perRow = shownOrientation(app.profile, app.state) === 'portrait' ? 4 : 7;
    const icons: View[] = app.state.installed
      .filter((a) => a.package !== app.profile.launcher)
      .map((a) =>
        column(
          [
            { kind: 'image', color: 'primary', glyph: a.name.charAt(0).toUpperCase(), glyphColor: 'onPrimary', width: 56, height: 56, radius: 16 },
            text(a.name, { size: 12, align: 'center' }),
          ],
          { role: 'icon', label: a.name, align: 'center', gap: 6, width: 80, height: 96, onTap: act('launch', a.package) },
        ),
      );
    const rows: View[] = [];
    for (let i = 0; i < icons.length; i += perRow) {
      rows.push(row(icons.slice(i, i + perRow), { gap: 8, justify: 'start', height: 96 }));
    }
    return { body: column(rows, { id: app.profile.platform === 'android' ? 'workspace' : undefined, pad: 16, gap: 24, grow: true }), bg: 'surface' };
  },
  act: (action, app) => app.unknownAction(action),
};

function pageFor(url: string, wifi: boolean): { title: string; body: string } {
  if (url === 'about:blank') return { title: 'New tab', body: 'Type a web address or search.' };
  if (!wifi) return { title: 'No internet', body: 'ERR_INTERNET_DISCONNECTED. Check your Wi-Fi connection.' };
  let host = url;
  try {
    host = new URL(url).hostname || url;
  } catch {
    // Keeps the raw text as the page name.
  }
  return { title: host.replace(/^www\./, ''), body: `This virtual page stands in for ${url}.` };
}

/** Turns what the user typed in the address bar into a URL, as browsers do. */
export function normalizeAddress(input: string): string {
  const value = input.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return value;
  if (/^[^\s]+\.[^\s]+$/.test(value)) return `https://${value}`;
  return `https://www.google.com/search?q=${encodeURIComponent(value)}`;
}

/** A browser with an address bar and a page showing the URL's host as title. */
export const browserApp: AppBehaviour = {
  start: () => ({ screen: 'page', url: 'about:blank' }),
  screen(app) {
    const url = app.route.url ?? 'about:blank';
    const page = pageFor(url, app.state.wifi);
    const editing = app.task.focus === 'url_bar';
    const fieldId = app.profile.platform === 'android' ? 'url_bar' : 'URL';
    return {
      body: column(
        [
          row(
            [{ kind: 'field', id: fieldId, hint: 'Search or type web address', value: editing ? app.field('url_bar') : url === 'about:blank' ? '' : url, focused: editing, onTap: act('editUrl') }],
            { pad: 8, bg: 'surface' },
          ),
          column(
            [text(page.title, { id: 'page_title', size: 24, bold: true }), text(page.body, { id: 'page_body', color: 'muted' })],
            { role: 'webview', label: page.title, pad: 16, gap: 12, grow: true },
          ),
        ],
        { grow: true },
      ),
      fields: ['url_bar'],
      submit: act('go'),
    };
  },
  act(action, app) {
    if (action.do === 'editUrl') {
      // Browsers select the whole address on focus, so typing replaces it.
      app.task.fields.url_bar = '';
      app.task.focus = 'url_bar';
      app.state.keyboardShown = true;
    } else if (action.do === 'go') {
      const typed = app.field('url_bar');
      if (!typed.trim()) return;
      app.push({ screen: 'page', url: normalizeAddress(typed) });
    } else {
      app.unknownAction(action);
    }
  },
};

/** System settings: Wi-Fi and dark theme switches, and an about page. */
export const settingsApp: AppBehaviour = {
  start: () => ({ screen: 'main' }),
  screen(app): Screen {
    const ios = app.profile.platform === 'ios';
    const { info } = app.profile;
    if (app.route.screen === 'about') {
      return {
        title: ios ? 'About' : 'About phone',
        up: true,
        body: column(
          [
            text(`${ios ? 'Model Name' : 'Device name'}: ${info.model}`, { id: 'device_name' }),
            text(`${ios ? 'iOS Version' : 'Android version'}: ${info.version}`, { id: 'os_version' }),
          ],
          { pad: 16, gap: 16, grow: true },
        ),
      };
    }
    return {
      title: 'Settings',
      body: column(
        [
          { kind: 'switch', id: 'wifi_switch', text: 'Wi-Fi', checked: app.state.wifi, onTap: act('setWifi', app.state.wifi ? 0 : 1) },
          { kind: 'switch', id: 'dark_mode_switch', text: ios ? 'Dark Mode' : 'Dark theme', checked: app.state.darkMode, onTap: act('setDarkMode', app.state.darkMode ? 0 : 1) },
          button(ios ? 'General' : 'About phone', act('about'), { id: 'about', style: 'tonal' }),
        ],
        { role: 'scroll', scrollKey: 'settings', pad: 16, gap: 8, grow: true },
      ),
    };
  },
  act(action, app) {
    if (action.do === 'about') app.push({ screen: 'about' });
    else app.unknownAction(action);
  },
};

/** What an installed third-party app shows: its name. */
export const genericApp: AppBehaviour = {
  start: () => ({ screen: 'main' }),
  screen(app) {
    const name = app.record?.name ?? app.pkg;
    return {
      title: name,
      body: column(
        [text(`Welcome to ${name}`, { id: 'welcome', size: 22, bold: true, align: 'center' }), text(`Version ${app.record?.version ?? '?'}`, { id: 'version', align: 'center', color: 'muted' })],
        { grow: true, justify: 'center', gap: 12, pad: 24 },
      ),
    };
  },
  act: (action, app) => app.unknownAction(action),
};
