import type { UiNode } from '../../../src/engine/ui-tree.js';

/**
 * The system's app error dialogs as a dump shows them: AppErrorDialog (an app crashed again, "keeps
 * stopping") and AppNotRespondingDialog ("isn't responding"). Both are AlertDialogs of the `android`
 * package in a window of their own that takes focus, so `uiautomator dump` (the active window) shows
 * the dialog alone. Title in android:id/alertTitle, buttons from app_error_dialog.xml /
 * app_anr_dialog.xml (frameworks/base core/res/res/layout): aerr_app_info and aerr_close for a crash
 * repeated, aerr_close, aerr_wait and aerr_report for an ANR.
 */
export interface AppErrorDialog {
  kind: 'crash' | 'anr';
  /** The app's label, as the title names it. */
  label: string;
}

export function appErrorDialogTree(dialog: AppErrorDialog, screen: { width: number; height: number }): UiNode {
  const width = Math.round(screen.width * 0.82);
  const x = Math.round((screen.width - width) / 2);
  const rowHeight = Math.round(screen.height * 0.06);
  const buttons = dialog.kind === 'crash'
    ? [['aerr_app_info', 'App info'], ['aerr_close', 'Close app']]
    : [['aerr_close', 'Close app'], ['aerr_wait', 'Wait'], ['aerr_report', 'Send feedback']];
  const height = rowHeight * (buttons.length + 2);
  const y = Math.round((screen.height - height) / 2);
  const node = (n: Partial<UiNode> & Pick<UiNode, 'bounds'>): UiNode => ({ type: 'other', text: '', label: null, enabled: true, package: 'android', children: [], ...n });
  const title = `${dialog.label} ${dialog.kind === 'crash' ? 'keeps stopping' : "isn't responding"}`;
  return node({
    className: 'android.widget.FrameLayout',
    bounds: { x, y, width, height },
    children: [
      node({ type: 'text', className: 'android.widget.TextView', resourceId: 'android:id/alertTitle', text: title, bounds: { x, y, width, height: rowHeight * 2 } }),
      ...buttons.map(([id, text], i) =>
        node({ type: 'button', className: 'android.widget.Button', resourceId: `android:id/${id}`, text, clickable: true, focusable: true, bounds: { x, y: y + rowHeight * (i + 2), width, height: rowHeight } }),
      ),
    ],
  });
}
