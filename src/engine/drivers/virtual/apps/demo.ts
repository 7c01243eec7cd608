import { DEMO_PACKAGE } from '../profile.js';
import type { DialogState, Route } from '../state.js';
import { button, column, row, text, type Action, type View } from '../view.js';
import type { AppBehaviour, AppScope, DeepLinkTarget, DialogSpec, Screen } from './app.js';

/** Documented sign-in credentials of the demo app. */
export const DEMO_CREDENTIALS = { email: 'demo@example.com', password: 'secret123' };
export const DEMO_LOADING_MS = 1500;
export const DEMO_ITEM_COUNT = 60;
/** Screens reachable with mbdemo://screen/<name>. */
export const DEMO_SCREENS = ['signin', 'loading', 'home', 'detail', 'search', 'more', 'settings', 'camera', 'inbox', 'error', 'alert', 'permission'] as const;

const SUBTITLES = ['Fresh today', 'Popular this week', 'Back in stock', 'Limited edition', 'Staff pick', 'On sale'];

const act = (name: string, arg?: string | number): Action => (arg === undefined ? { do: name } : { do: name, arg });
const MAX_PHOTO_ZOOM = 4;
const photoKey = (n: number) => `photo${n}`;

function loading(app: AppScope, next: string): Route {
  return { screen: 'loading', until: app.now + DEMO_LOADING_MS, next };
}

function visibleItems(app: AppScope): number[] {
  const deleted = new Set(app.list('deleted'));
  return Array.from({ length: DEMO_ITEM_COUNT }, (_, i) => i + 1).filter((n) => !deleted.has(n));
}

/**
 * Where a link to item `raw` leads: its detail screen, or, as a real app answers a link to an item
 * it does not have (never had, or deleted), a "not found" screen above the list, saying so to the caller.
 */
function itemLink(app: AppScope, raw: string): DeepLinkTarget {
  const n = /^\d+$/.test(raw) ? Number(raw) : undefined;
  if (n !== undefined && visibleItems(app).includes(n)) return { routes: [{ screen: 'home' }, { screen: 'detail', item: n }] };
  const why = n !== undefined && app.list('deleted').includes(n) ? `item ${n} was deleted` : `the demo app has no item ${n ?? JSON.stringify(raw)} (items 1–${DEMO_ITEM_COUNT})`;
  return { routes: [{ screen: 'home' }, { screen: 'missing', item: n }], landed: `${why}, so it shows "Item not found"` };
}

function signIn(app: AppScope): Screen {
  const email = app.field('email');
  const password = app.field('password');
  const children: View[] = [
    text('Welcome back', { size: 24, bold: true }),
    text('Sign in to see your items.', { color: 'muted' }),
    { kind: 'field', id: 'email', hint: 'Email', value: email, focused: app.task.focus === 'email', onTap: act('focus', 'email') },
    { kind: 'field', id: 'password', hint: 'Password', value: password, password: true, focused: app.task.focus === 'password', onTap: act('focus', 'password') },
  ];
  if (app.task.error) children.push(text(app.task.error, { id: 'error', color: 'error' }));
  children.push(
    button('Sign in', act('signIn'), { id: 'sign_in', enabled: Boolean(email && password) }),
    button('Forgot password?', act('forgotPassword'), { id: 'forgot_password', style: 'text' }),
  );
  return {
    title: 'Sign in',
    body: column(children, { role: 'scroll', scrollKey: 'signin', pad: 24, gap: 16, grow: true }),
    fields: ['email', 'password'],
    submit: act('signIn'),
  };
}

function itemRow(app: AppScope, n: number): View {
  const liked = app.list('liked').includes(n);
  return row(
    [
      { kind: 'image', color: 'image', glyph: String(n), width: 40, height: 40, radius: 20 },
      column([text(`Item ${n}`, { bold: true }), text(SUBTITLES[n % SUBTITLES.length], { size: 14, color: 'muted' })], { justify: 'center' }),
      text(liked ? '♥' : '', { width: 32, size: 20, color: 'liked', align: 'center', label: liked ? 'Liked' : undefined }),
    ],
    {
      role: 'listitem', id: `item_${n}`, height: 72, padX: 16, gap: 16, border: 'surfaceVariant',
      onTap: act('openItem', n), onLongPress: act('itemMenu', n), onDoubleTap: act('toggleLike', n),
    },
  );
}

function home(app: AppScope): Screen {
  const items = visibleItems(app);
  const body: View = items.length
    ? column(items.map((n) => itemRow(app, n)), { role: 'list', id: 'items', scrollKey: 'items', grow: true })
    : column([text('No items', { id: 'empty_title', align: 'center', color: 'muted' })], { grow: true, justify: 'center' });
  return {
    title: 'Items',
    actions: [
      button('', act('push', 'settings'), { id: 'action_settings', label: 'Settings', style: 'icon', glyph: '⚙', width: 48 }),
      button('', act('push', 'more'), { id: 'action_more', label: 'More options', style: 'icon', glyph: '⋮', width: 48 }),
    ],
    body,
  };
}

/**
 * Items whose title holds what was typed, all of them while the field is empty. Its placeholder
 * "Search your items" and the empty result "No items" share a word with the list's title, which
 * is what descriptions such as "Items" must not be taken for.
 */
function search(app: AppScope): Screen {
  const typed = app.field('search').trim().toLowerCase();
  const found = visibleItems(app).filter((n) => `item ${n}`.includes(typed));
  const results: View = found.length
    ? column(found.map((n) => itemRow(app, n)), { role: 'list', id: 'results', scrollKey: 'results', grow: true })
    : column([text('No items', { id: 'no_results', align: 'center', color: 'muted' })], { grow: true, justify: 'center' });
  return {
    title: 'Search',
    up: true,
    body: column(
      [
        row([{ kind: 'field', id: 'search', hint: 'Search your items', value: app.field('search'), focused: app.task.focus === 'search', onTap: act('focus', 'search') }], { pad: 8 }),
        results,
      ],
      { grow: true },
    ),
    fields: ['search'],
  };
}

function detail(app: AppScope): Screen {
  const n = app.route.item ?? 1;
  const liked = app.list('liked').includes(n);
  const zoom = app.zoom(photoKey(n));
  return {
    title: `Item ${n}`,
    up: true,
    body: column(
      [
        { kind: 'image', id: 'detail_image', label: `Photo of Item ${n}`, color: 'image', glyph: liked ? '♥' : '', glyphColor: 'liked', height: 200, onPinch: act('zoomPhoto', n) },
        ...(zoom > 1 ? [text(`Zoom ${Math.round(zoom * 100)} %`, { id: 'zoom_level', color: 'muted' })] : []),
        text(`Item ${n}`, { id: 'detail_title', size: 22, bold: true }),
        text(`${SUBTITLES[n % SUBTITLES.length]}. Double tap the photo to like it.`, { id: 'detail_description', color: 'muted' }),
        text(liked ? '♥ Liked' : 'Not liked yet', { id: 'like_state', color: liked ? 'liked' : 'muted' }),
        button(liked ? 'Unlike' : 'Like', act('likeButton', n), { id: 'like_button', style: liked ? 'tonal' : 'filled' }),
      ],
      { pad: 16, gap: 16, grow: true, onDoubleTap: act('toggleLike', n) },
    ),
  };
}

function more(): Screen {
  const entry = (label: string, id: string, action: Action) => button(label, action, { id, style: 'tonal' });
  return {
    title: 'More',
    up: true,
    body: column(
      [
        entry('Show alert', 'show_alert', act('showAlert')),
        entry('Save draft', 'save_draft', act('saveDraft')),
        entry('Open camera', 'open_camera', act('openCamera')),
        entry('Inbox', 'open_inbox', act('push', 'inbox')),
        entry('Feed', 'open_feed', act('push', 'error')),
        entry('Settings', 'open_settings', act('push', 'settings')),
      ],
      { pad: 16, gap: 12, grow: true },
    ),
  };
}

function settings(app: AppScope): Screen {
  return {
    title: 'Settings',
    up: true,
    body: column(
      [
        { kind: 'switch', id: 'dark_mode_switch', text: 'Dark mode', checked: app.state.darkMode, onTap: act('setDarkMode', app.state.darkMode ? 0 : 1) },
        { kind: 'switch', id: 'notifications_switch', text: 'Notifications', checked: app.flag('notifications'), onTap: act('toggleNotifications') },
        text(app.flag('signedIn') ? `Signed in as ${DEMO_CREDENTIALS.email}` : 'Not signed in', { id: 'account', color: 'muted' }),
        button('Sign out', act('signOut'), { id: 'sign_out', style: 'tonal' }),
      ],
      { pad: 16, gap: 8, grow: true },
    ),
  };
}

function centred(children: View[]): View {
  return column(children, { grow: true, justify: 'center', align: 'center', gap: 16, pad: 24 });
}

const SCREENS: Record<string, (app: AppScope) => Screen> = {
  signin: signIn,
  loading: () => ({
    body: centred([
      { kind: 'spinner', id: 'loading_spinner', label: 'Loading', width: 48 },
      text('Loading…', { id: 'loading_text', align: 'center', color: 'muted' }),
    ]),
  }),
  home,
  detail,
  search,
  more,
  settings,
  camera: () => ({
    title: 'Camera',
    up: true,
    bg: 'viewfinder',
    body: column(
      [
        { kind: 'image', id: 'viewfinder', label: 'Camera preview', color: 'viewfinder', glyph: '◎', grow: true, radius: 0 },
        row([button('Take photo', act('takePhoto'), { id: 'shutter', width: 200 })], { justify: 'center', pad: 16 }),
      ],
      { grow: true },
    ),
  }),
  inbox: () => ({
    title: 'Inbox',
    up: true,
    body: centred([
      { kind: 'image', id: 'empty_image', color: 'surfaceVariant', glyph: '✉', glyphColor: 'muted', width: 96, height: 96, radius: 48 },
      text('No messages yet', { id: 'empty_title', size: 20, bold: true, align: 'center' }),
      text('Messages you receive will appear here.', { id: 'empty_message', align: 'center', color: 'muted' }),
    ]),
  }),
  missing: (app) => ({
    title: 'Not found',
    up: true,
    body: centred([
      { kind: 'image', id: 'not_found_image', color: 'surfaceVariant', glyph: '?', glyphColor: 'muted', width: 96, height: 96, radius: 48 },
      text('Item not found', { id: 'not_found_title', size: 20, bold: true, align: 'center' }),
      text(app.route.item !== undefined ? `Item ${app.route.item} does not exist or was deleted.` : 'This item does not exist.', { id: 'not_found_message', align: 'center', color: 'muted' }),
      button('Back to items', act('back'), { id: 'back_to_items', width: 200 }),
    ]),
  }),
  error: () => ({
    title: 'Feed',
    up: true,
    body: centred([
      { kind: 'image', id: 'error_image', color: 'surfaceVariant', glyph: '⚠', glyphColor: 'error', width: 96, height: 96, radius: 48 },
      text('Something went wrong', { id: 'error_title', size: 20, bold: true, align: 'center' }),
      text("We couldn't load your feed. Check your connection and try again.", { id: 'error_message', align: 'center', color: 'muted' }),
      button('Retry', act('retry'), { id: 'retry', width: 160 }),
    ]),
  }),
};

function dialogFor(app: AppScope): DialogSpec | undefined {
  const d = app.task.dialog;
  if (!d) return undefined;
  const { wording, platform } = app.profile;
  switch (d.kind) {
    case 'itemMenu': {
      const n = d.item ?? 1;
      const liked = app.list('liked').includes(n);
      return {
        title: `Item ${n}`,
        options: [
          { id: 'menu_open', text: 'Open', action: act('openItem', n) },
          { id: 'menu_like', text: liked ? 'Unlike' : 'Like', action: act('menuLike', n) },
          { id: 'menu_delete', text: 'Delete', action: act('deleteItem', n) },
        ],
        onCancel: act('closeDialog'),
      };
    }
    case 'alert':
      return {
        title: 'Reset likes?',
        message: 'This removes the like from every item.',
        buttons: [
          { id: 'alert_cancel', text: 'Cancel', action: act('closeDialog') },
          { id: 'alert_confirm', text: 'Reset', action: act('resetLikes') },
        ],
        onCancel: act('closeDialog'),
      };
    case 'permission':
      return {
        system: true,
        title: platform === 'ios'
          ? '“MobileBridge Demo” Would Like to Access the Camera'
          : 'Allow MobileBridge Demo to take pictures and record video?',
        message: platform === 'ios' ? 'The camera is used to take photos of your items.' : undefined,
        buttons: [
          { id: 'permission_allow_button', text: wording.allow, action: act('allowCamera') },
          { id: 'permission_deny_button', text: wording.deny, action: act('denyCamera') },
        ],
        // BACK on Android's permission prompt counts as a denial; a tap outside does nothing.
        onCancel: platform === 'android' ? act('denyCamera') : undefined,
      };
    default:
      return undefined;
  }
}

function handle(action: Action, app: AppScope): void {
  const n = typeof action.arg === 'number' ? action.arg : 0;
  switch (action.do) {
    case 'push': app.push({ screen: String(action.arg) }); return;
    case 'signIn': {
      const email = app.field('email').trim();
      const password = app.field('password');
      if (!email || !password) return;
      if (email.toLowerCase() === DEMO_CREDENTIALS.email && password === DEMO_CREDENTIALS.password) {
        app.setFlag('signedIn', true);
        app.resetTo([loading(app, 'home')]);
      } else {
        app.task.focus = null;
        app.task.error = 'Invalid email or password';
      }
      return;
    }
    case 'forgotPassword': app.toast('Password reset is not available in the demo'); return;
    case 'openItem': app.push({ screen: 'detail', item: n }); return;
    case 'itemMenu': app.showDialog({ kind: 'itemMenu', item: n }); return;
    case 'toggleLike': app.toggleInList('liked', n); return;
    case 'zoomPhoto': {
      // A photo viewer's bounds: never smaller than the fitted photo, at most 4×, in tenths.
      const next = Math.min(MAX_PHOTO_ZOOM, Math.max(1, Math.round(app.zoom(photoKey(n)) * (action.scale ?? 1) * 10) / 10));
      app.setZoom(photoKey(n), next);
      return;
    }
    case 'likeButton':
      app.toast(app.toggleInList('liked', n) ? 'Added to favourites' : 'Removed from favourites');
      return;
    case 'menuLike': app.toggleInList('liked', n); app.closeDialog(); return;
    case 'deleteItem':
      app.list('deleted').push(n);
      app.closeDialog();
      app.toast(`Item ${n} deleted`);
      return;
    case 'showAlert': app.showDialog({ kind: 'alert' }); return;
    case 'resetLikes': app.data.lists.liked = []; app.closeDialog(); app.toast('Likes reset'); return;
    case 'saveDraft': app.toast('Draft saved'); return;
    case 'openCamera':
      if (app.flag('cameraGranted')) app.push({ screen: 'camera' });
      else app.showDialog({ kind: 'permission' });
      return;
    case 'allowCamera': app.setFlag('cameraGranted', true); app.push({ screen: 'camera' }); return;
    case 'denyCamera': app.closeDialog(); app.toast('Camera permission denied'); return;
    case 'takePhoto': app.toast('Photo saved'); return;
    case 'toggleNotifications': app.setFlag('notifications', !app.flag('notifications')); return;
    case 'signOut': app.setFlag('signedIn', false); app.resetTo([{ screen: 'signin' }]); return;
    case 'retry': app.replace(loading(app, app.state.wifi ? 'home' : 'error')); return;
    default: app.unknownAction(action);
  }
}

/** Deep links: mbdemo://screen/<name> and mbdemo://item/<n>. Anything past sign-in counts as signed in. */
function deepLink(url: URL, app: AppScope): DeepLinkTarget | undefined {
  if (url.protocol !== 'mbdemo:') return undefined;
  const [kind, name = ''] = [url.hostname, url.pathname.replace(/^\/+/, '')];
  if (kind === 'item' && /^\d+$/.test(name)) {
    app.setFlag('signedIn', true);
    return itemLink(app, name);
  }
  if (kind !== 'screen' || !(DEMO_SCREENS as readonly string[]).includes(name)) return undefined;
  if (name === 'signin') return { routes: [{ screen: 'signin' }] };
  app.setFlag('signedIn', true);
  const withDialog = (dialog: DialogState): DeepLinkTarget => ({ routes: [{ screen: 'home' }, { screen: 'more' }], dialog });
  switch (name) {
    case 'home': return { routes: [{ screen: 'home' }] };
    case 'loading': return { routes: [loading(app, 'home')] };
    case 'detail': return itemLink(app, url.searchParams.get('item') ?? '1');
    case 'alert': return withDialog({ kind: 'alert' });
    case 'permission': return withDialog({ kind: 'permission' });
    default: return { routes: [{ screen: 'home' }, { screen: name }] };
  }
}

export const demoApp: AppBehaviour = {
  start: (app) => (app.flag('signedIn') ? { screen: 'home' } : { screen: 'signin' }),
  screen(app) {
    const build = SCREENS[app.route.screen] ?? SCREENS.home;
    const screen = build(app);
    screen.dialog = dialogFor(app);
    return screen;
  },
  act: handle,
  deepLink,
};

export { DEMO_PACKAGE };
