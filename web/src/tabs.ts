/**
 * ARIA tabs (WAI-ARIA Authoring Practices "Tabs" pattern): one tab in the tab order, arrow
 * keys, Home and End move between tabs, and activation shows the tab's panel.
 */
export function setupTabs(tablist: HTMLElement, onChange: (panelId: string) => void): (panelId: string) => void {
  const tabs = [...tablist.querySelectorAll<HTMLElement>('[role="tab"]')];
  const select = (tab: HTMLElement, focus: boolean) => {
    for (const t of tabs) {
      const selected = t === tab;
      t.setAttribute('aria-selected', String(selected));
      t.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(t.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !selected;
    }
    if (focus) tab.focus();
    onChange(tab.getAttribute('aria-controls') ?? '');
  };
  for (const tab of tabs) {
    tab.addEventListener('click', () => select(tab, false));
    tab.addEventListener('keydown', (e) => {
      const i = tabs.indexOf(tab);
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length]!, true);
    });
  }
  return (panelId) => {
    const tab = tabs.find((t) => t.getAttribute('aria-controls') === panelId);
    if (tab) select(tab, false);
  };
}
