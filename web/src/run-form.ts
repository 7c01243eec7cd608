import { el } from './dom.js';
import { initialValue, keptValues, placeholder, sameForm, valuesToSend, type FormParameter } from './run-parameters.js';

/**
 * The Run form: one field per parameter (secret ones in password inputs, defaults filled in unless
 * secret). Values live only in the fields, for the next run, until the page reloads or the
 * parameters change; then only those keptValues allows stay.
 */
export class RunForm {
  private params: FormParameter[] = [];
  private inputs = new Map<string, HTMLInputElement>();

  constructor(private readonly form: HTMLFormElement) {}

  get parameters(): readonly FormParameter[] {
    return this.params;
  }

  /** Rebuilds the form for `params`; false when it already is that form (its values stay as typed). */
  show(params: FormParameter[]): boolean {
    if (sameForm(params, this.params)) return false;
    const kept = keptValues(this.params, this.entered(), params);
    this.params = params;
    this.inputs = new Map(
      params.map((p) => {
        const input = el('input', {
          name: p.name,
          type: p.secret ? 'password' : 'text',
          autocomplete: p.secret ? 'new-password' : 'off',
          spellcheck: 'false',
          title: p.description,
          placeholder: placeholder(p),
          required: p.default === undefined,
        });
        input.value = kept.get(p.name) ?? initialValue(p);
        return [p.name, input];
      }),
    );
    this.form.hidden = params.length === 0;
    this.form.replaceChildren(
      el('p', { class: 'hint' }, 'Parameters (a default is used unless you change it; secret ones are masked in every result and never stored here):'),
      ...params.map((p) =>
        el(
          'label',
          { class: 'run-param', 'data-param': p.name },
          el('span', { class: 'name' }, p.name),
          this.inputs.get(p.name)!,
          p.flow ? el('span', { class: 'muted' }, `for flow step ${p.flow.step} (${p.flow.file})`) : '',
        ),
      ),
      el('button', { type: 'submit', class: 'primary' }, '▶ Run with these values'),
    );
    return true;
  }

  /** The values to send and the names still missing. */
  read(): { values: Record<string, string>; missing: string[] } {
    return valuesToSend(this.params, this.entered());
  }

  focus(name?: string): void {
    (name ? this.inputs.get(name) : this.inputs.values().next().value)?.focus();
  }

  private entered(): Map<string, string> {
    return new Map([...this.inputs].map(([name, input]) => [name, input.value]));
  }
}
