/**
 * The viewer's keyboard shortcuts (issue 17), scrcpy-like: scrcpy's MOD key is Alt here, since
 * Ctrl/⌘ letters belong to the browser (and Ctrl+A, C, X, Z to the phone: actions.ts). Matched on the physical key (KeyboardEvent.code) so Alt
 * letters work on macOS too, where Alt+B types "∫". Alt+Left/Right (browser history), Alt+F and
 * Alt+E (browser menus) and Alt+D (address bar) are left alone.
 */
export type ShortcutAction = 'back' | 'home' | 'app_switch' | 'volume_up' | 'volume_down' | 'rotate' | 'screenshot' | 'zoom_fit' | 'zoom_actual' | 'focus_screen';

export interface Shortcut {
  code: string;
  label: string;
  action: ShortcutAction;
  what: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { code: 'KeyB', label: 'Alt+B', action: 'back', what: 'Back (Android; on iOS an edge swipe from the left)' },
  { code: 'KeyH', label: 'Alt+H', action: 'home', what: 'Home' },
  { code: 'KeyS', label: 'Alt+S', action: 'app_switch', what: 'App switcher (Android)' },
  // scrcpy's MOD+↑ / MOD+↓.
  { code: 'ArrowUp', label: 'Alt+↑', action: 'volume_up', what: 'Volume up' },
  { code: 'ArrowDown', label: 'Alt+↓', action: 'volume_down', what: 'Volume down' },
  { code: 'KeyR', label: 'Alt+R', action: 'rotate', what: 'Rotate (portrait ↔ landscape)' },
  { code: 'KeyP', label: 'Alt+P', action: 'screenshot', what: 'Screenshot (downloads a PNG)' },
  { code: 'KeyW', label: 'Alt+W', action: 'zoom_fit', what: 'Fit the screen to the window' },
  { code: 'KeyG', label: 'Alt+G', action: 'zoom_actual', what: 'Zoom 1:1 (one device pixel per display pixel)' },
  { code: 'KeyK', label: 'Alt+K', action: 'focus_screen', what: 'Focus the screen (keys go to the device)' },
];

export interface ShortcutKey {
  code: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

/** The shortcut a key press means, if any: Alt plus the key, nothing else held. */
export function shortcutFor(e: ShortcutKey): Shortcut | undefined {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return undefined;
  return SHORTCUTS.find((s) => s.code === e.code);
}
