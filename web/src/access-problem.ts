import type { Diagnosis } from './connection.js';
import { el } from './dom.js';

const TITLE = {
  token_missing: 'This bridge needs a token',
  token_wrong: 'The token in this address is wrong',
} as const;

/**
 * The bridge refuses this page's token (missing, or wrong, e.g. after a restart with another one):
 * a page over the viewer that says which and lets the user give the right one. The bridge serves
 * the same words at `/` (src/bridge/access-page.ts) when the page itself is refused.
 */
export class AccessProblem {
  private shown: HTMLElement | undefined;

  show(d: Diagnosis): void {
    if (d.kind !== 'token_missing' && d.kind !== 'token_wrong') return this.hide();
    if (this.shown?.dataset.problem === d.kind) return;
    this.hide();
    const input = el('input', { type: 'password', id: 'access-token', name: 'token', autocomplete: 'off', required: true, 'aria-describedby': 'access-advice' });
    const form = el('form', { class: 'row' }, el('label', { for: 'access-token' }, 'Token'), input, el('button', { type: 'submit', class: 'primary' }, 'Open with this token'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const params = new URLSearchParams(location.search);
      params.set('token', input.value.trim());
      location.search = params.toString();
    });
    const advice =
      d.kind === 'token_missing'
        ? 'The bridge was started with --token (or MOBILEBRIDGE_TOKEN) and this address carries none. Open the viewer URL that mobilebridge serve printed (it ends in ?token=…), or enter the token here.'
        : 'The bridge refused the token this page sent. It may have been restarted with another one: open the URL it printed when it last started, or enter the current token here.';
    this.shown = el(
      'section',
      { class: 'access-problem', id: 'access-problem', role: 'alertdialog', 'aria-labelledby': 'access-title', 'aria-describedby': 'access-advice', 'data-problem': d.kind },
      el('div', { class: 'access-card' }, el('h1', { id: 'access-title' }, TITLE[d.kind]), el('p', { id: 'access-advice' }, advice), form, el('p', { class: 'hint' }, `The bridge said: ${d.message}`)),
    );
    document.body.append(this.shown);
    input.focus();
  }

  hide(): void {
    this.shown?.remove();
    this.shown = undefined;
  }
}
