/**
 * "Type text…": a real text field beside the screen whose text is typed on the device
 * (mobile_type_keys, in the one queue with taps and keys). The screen is a canvas, which an input
 * method cannot compose on: Chinese, Japanese and Korean input, dictation and the browser's own
 * autocorrect only work in a text field, so their text is written here and sent whole.
 */
export function bindTextBox(field: HTMLInputElement, sendButton: HTMLButtonElement, type: (text: string) => void): void {
  const send = () => {
    const text = field.value;
    if (!text) return;
    type(text);
    field.value = '';
  };
  field.addEventListener('keydown', (e) => {
    // Enter that ends a composition (keyCode 229 in Chrome and Safari) belongs to the input method.
    if (e.key !== 'Enter' || e.isComposing || e.keyCode === 229) return;
    e.preventDefault();
    send();
  });
  sendButton.addEventListener('click', () => {
    send();
    field.focus();
  });
}
