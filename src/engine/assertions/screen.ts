import type { Assertion } from '../../validate/index.js';
import { normalizeText } from '../resolve/index.js';
import { isDialog, isToast, resolveOnce, PERMISSION_WORDS } from '../verbs/index.js';
import { checked, dialogTexts, name, permissionDialog, screenTitle, visualState } from './observe.js';
import { readInside, realInside, writeInside } from '../files/safe-fs.js';
import { pngOf } from '../screen/capture.js';
import { distance, dominantColor, parseHex, similarity, toHex } from './pixels.js';
import type { Evaluator } from './types.js';

type Of<T extends Assertion['type']> = Evaluator<T>;

/** Largest RGB distance (of 441) still counted as "the same colour": allows shading and anti-aliasing. */
export const COLOR_DISTANCE = 40;

const includesNormalized = (hay: string, needle: string) => normalizeText(hay).includes(normalizeText(needle));

export const screenEvaluators: { [K in Assertion['type']]?: Of<K> } = {
  async screenshot_match(a, env) {
    const where = { roots: [env.scenarioDir], param: 'reference_screenshot', hint: "references stay inside the scenario's folder (rule path-escapes-scenario)" };
    let located: Awaited<ReturnType<typeof realInside>>;
    try {
      located = await realInside(a.reference_screenshot, where, env.scenarioDir);
    } catch (err) {
      return { pass: false, error: true, message: (err as Error).message };
    }
    const file = located.absolute;
    const current = await env.screenshot();
    let reference: Buffer;
    try {
      if (!located.exists) {
        await writeInside(file, await pngOf(current), where, { createFolders: true });
        return { pass: true, expected: a.tolerance, actual: 1, message: `no reference yet: recorded this screen as the baseline ${file}; later runs compare against it` };
      }
      reference = await readInside(file, where);
    } catch (err) {
      return { pass: false, error: true, message: (err as Error).message };
    }
    try {
      const { score } = await similarity(reference, current);
      const rounded = Math.round(score * 1000) / 1000;
      return { pass: score >= a.tolerance, expected: `similarity ≥ ${a.tolerance}`, actual: rounded, message: `${Math.round(score * 1000) / 10}% of what is drawn matches ${a.reference_screenshot}` };
    } catch (err) {
      return { pass: false, error: true, message: `cannot compare with ${file}: ${(err as Error).message}; is it a PNG?` };
    }
  },
  async visual_state(a, env) {
    const seen = visualState(await env.elements());
    return { pass: seen.state === a.expected_visual_state, expected: a.expected_visual_state, actual: seen.state, message: `the screen is ${seen.state} (${seen.because})` };
  },
  async color_style(a, env) {
    const elements = await env.elements();
    const r = await resolveOnce(env.verbs, { description: a.element_description, intent: 'read', inspect: true }, elements);
    if (!r.ok) return { pass: false, expected: a.color_hex.toLowerCase(), actual: null, message: r.message };
    const color = await dominantColor(await env.screenshot(), r.element);
    const d = distance(color, parseHex(a.color_hex));
    return { pass: d <= COLOR_DISTANCE, expected: a.color_hex.toLowerCase(), actual: toHex(color), message: `the dominant colour of ${checked(r.element)} is ${toHex(color)} (distance ${Math.round(d)}, at most ${COLOR_DISTANCE} passes)` };
  },
  async screen_title(a, env) {
    const title = screenTitle(await env.elements(), await env.screen());
    return { pass: title === a.expected_text, expected: a.expected_text, actual: title ?? null, message: title === undefined ? 'the screen shows no title' : `the title is ${JSON.stringify(title)}` };
  },
  async alert_present(_a, env) {
    const dialog = (await env.elements()).find(isDialog);
    return { pass: Boolean(dialog), expected: 'a dialog', actual: dialog ? name(dialog) : null, message: dialog ? `dialog ${name(dialog)} is showing` : 'no dialog is showing' };
  },
  async alert_text(a, env) {
    const texts = dialogTexts(await env.elements());
    if (!texts) return { pass: false, expected: a.expected_text, actual: null, message: 'no dialog is showing' };
    const pass = texts.some((t) => includesNormalized(t, a.expected_text));
    return { pass, expected: a.expected_text, actual: texts.join(' | '), message: pass ? 'the dialog shows the text' : `the dialog shows ${JSON.stringify(texts.join(' | '))}` };
  },
  async toast_visible(a, env) {
    const now = (await env.elements()).filter(isToast).map((e) => e.text || e.accessibility_label || '');
    const seen = [...env.toastsSeen, ...now];
    const hit = seen.find((t) => includesNormalized(t, a.expected_text));
    return { pass: Boolean(hit), expected: a.expected_text, actual: seen.length ? [...new Set(seen)] : null, message: hit ? `toast ${JSON.stringify(hit)} ${now.includes(hit) ? 'is showing' : 'was shown during the step'}` : seen.length ? `toasts seen: ${[...new Set(seen)].map((t) => JSON.stringify(t)).join(', ')}` : 'no toast was seen since the step began' };
  },
  async keyboard_visible(a, env) {
    const shown = await env.keyboard();
    return { pass: shown === a.expected_visible, expected: a.expected_visible, actual: shown, message: `the keyboard is ${shown ? 'showing' : 'hidden'}` };
  },
  async permission_dialog_shown(a, env) {
    const dialog = permissionDialog(await env.elements());
    if (!dialog) return { pass: false, expected: a.permission_name ?? 'a permission prompt', actual: null, message: 'no system permission prompt is showing' };
    const text = dialog.texts.join(' ');
    if (a.permission_name) {
      const key = normalizeText(a.permission_name);
      const words = [key, ...(PERMISSION_WORDS[key] ?? [])];
      const pass = words.some((w) => includesNormalized(text, w));
      return { pass, expected: a.permission_name, actual: text, message: pass ? `the prompt asks for ${a.permission_name}` : `the prompt does not ask for ${a.permission_name}: ${JSON.stringify(text)}` };
    }
    return { pass: true, expected: 'a permission prompt', actual: text, message: `permission prompt: ${JSON.stringify(text)}` };
  },
  async dark_mode_active(a, env) {
    const { dark, source } = await env.darkMode();
    const theme = dark ? 'dark' : 'light';
    return { pass: theme === a.expected_theme, expected: a.expected_theme, actual: theme, message: `the system theme is ${theme} (${source})` };
  },
};
