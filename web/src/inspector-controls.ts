/** Small controls of the inspector: the List / Tree switch and copying to the clipboard. */

/** Two aria-pressed buttons that show one of two views. */
export function setupViewSwitch(listButton: HTMLElement, treeButton: HTMLElement, list: HTMLElement, tree: HTMLElement): void {
  const show = (asTree: boolean) => {
    listButton.setAttribute('aria-pressed', String(!asTree));
    treeButton.setAttribute('aria-pressed', String(asTree));
    list.hidden = asTree;
    tree.hidden = !asTree;
  };
  listButton.addEventListener('click', () => show(false));
  treeButton.addEventListener('click', () => show(true));
}

/**
 * Puts text on the clipboard. The Clipboard API needs a secure context (loopback counts; a bridge
 * reached over plain http on another host does not), so fall back to a selected textarea there.
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser refused; select the text in the attributes and copy it by hand');
}
