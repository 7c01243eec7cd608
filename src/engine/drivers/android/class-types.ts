import type { ElementType } from '../../types.js';

/**
 * Android widget class → SPEC §2 element type. Matched on the simple class name so that
 * AppCompat/Material subclasses (AppCompatButton, MaterialButton, SwitchMaterial) map like their base.
 * Compose, Flutter and React Native report roles through these same widget classes when they set one.
 */
const BY_SUFFIX: [RegExp, ElementType][] = [
  [/(EditText|AutoCompleteTextView|SearchAutoComplete)$/, 'edittext'],
  [/(Switch|SwitchCompat|SwitchMaterial|ToggleButton)$/, 'switch'],
  [/(CheckBox|CheckedTextView)$/, 'checkbox'],
  [/RadioButton$/, 'radio'],
  [/(\$Tab|TabView|TabWidget\$\w+)$/, 'tab'],
  [/(Button|FloatingActionButton|Spinner|Chip)$/, 'button'],
  [/(WebView)$/, 'webview'],
  [/KeyboardView$/, 'keyboard'],
  [/(RecyclerView|ListView|GridView|ScrollView|NestedScrollView|ViewPager2?|AbsListView)$/, 'list'],
  [/(ImageView|QuickContactBadge)$/, 'image'],
  [/(TextView|TextClock|Chronometer)$/, 'text'],
];

export interface ClassHints {
  clickable: boolean;
  checkable: boolean;
  scrollable: boolean;
  hasText: boolean;
  resourceId: string;
  parentType: ElementType | undefined;
  insideWebView: boolean;
}

export function elementTypeFor(className: string, hints: ClassHints): ElementType {
  if (/:id\/(parentPanel|alertTitle)$/.test(hints.resourceId) || /Dialog/.test(className)) return 'dialog';
  for (const [pattern, type] of BY_SUFFIX) {
    if (pattern.test(className)) {
      // A tappable run of text inside a web page is a link, not static text.
      if (hints.insideWebView && hints.clickable && (type === 'text' || type === 'other')) return 'link';
      return type;
    }
  }
  // Generic containers (View, ViewGroup, FrameLayout, Compose nodes): decide by what they do.
  if (hints.checkable) return 'checkbox';
  if (hints.parentType === 'list') return 'listitem';
  if (hints.clickable) return hints.insideWebView && hints.hasText ? 'link' : 'button';
  if (hints.scrollable) return 'list';
  if (hints.hasText) return 'text';
  return 'other';
}
