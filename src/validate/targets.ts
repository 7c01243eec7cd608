/**
 * Recognisers for things that must not appear in a scenario: platform locators where a semantic
 * description belongs, and malformed package names / bundle ids.
 */

const LOCATORS: readonly [RegExp, string][] = [
  [/^[A-Za-z][\w.]*:id\/[\w.]+$/, 'an Android resource-id'],
  [/^@\+?(?:[A-Za-z][\w.]*:)?id\/\w+$|^(?:[A-Za-z][\w.]*\.)?R\.id\.\w+$/, 'an Android resource reference (@id/…, R.id.…)'],
  [/^(?:\(?\/\/?[\w*@.-]|\.\/\/)|\[@[\w:-]+\s*=|^\(\/\//, 'an XPath expression'],
  [/XCUIElementType\w+/, 'an iOS element class (XCUIElementType…)'],
  [/^(?:android|androidx|com\.google\.android)\.(?:widget|view|webkit|appcompat|recyclerview|material)[\w.]*(?:\[\d+\])?$/i, 'an Android class name'],
  [/^\s*(?:id|name|accessibility[ _-]?id|xpath|css|class|class ?name|resource[ _-]?id|text|-ios predicate string|-ios class chain|-android uiautomator)\s*(?:=|:(?!\s))/i, 'a selector ("id=…", "name=…")'],
  // Not "~/…": a home-relative path is something a user may read on screen ("~/Documents folder").
  [/^~[^\s/]/, 'an accessibility-id selector ("~…")'],
  [/^#[A-Za-z][\w-]*$/, 'a CSS id selector ("#…")'],
  [/^\.[A-Za-z][\w-]*$/, 'a CSS class selector (".…")'],
  [/UiSelector\s*\(|\.resourceId(?:Matches)?\s*\(|\b(?:resourceId|resourceIdMatches|className|text|textContains|textStartsWith|textMatches|description|descriptionContains)\(["']|\bby\.(?:id|xpath|accessibilityId)\s*\(/i, 'a UiSelector / driver locator'],
  [/\b(?:label|name|value|type|identifier)\s*(?:==|!=|CONTAINS|BEGINSWITH|ENDSWITH|LIKE|MATCHES)(?:\[[cdn]+\])?\s*['"]/, 'an NSPredicate'],
  [/^\*\*\/XCUI|^\*\*\/\w+\[/, 'an iOS class chain'],
  [/^\(?\s*-?\d+(?:\.\d+)?(?:\s*[,;x×]\s*|\s+)-?\d+(?:\.\d+)?\s*\)?$/i, 'bare screen coordinates'],
  [/^x\s*[:=]\s*\d+(?:\.\d+)?\s*[,; ]\s*y\s*[:=]\s*\d+(?:\.\d+)?$/i, 'bare screen coordinates'],
];

/**
 * Every pattern above needs one of these characters or the word XCUIElementType, and plain
 * descriptions ("the Sign in button") have none, so they skip the thirteen patterns. A new
 * pattern that can match without any of them must extend this. A table lookup per character is
 * faster than the equivalent regex on the short texts of descriptions.
 */
const HINT_CHARACTERS = new Uint8Array(128);
for (const c of `:/[=(~#.'"*0123456789`) HINT_CHARACTERS[c.charCodeAt(0)] = 1;

function mayBeLocator(text: string): boolean {
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c < 128 && HINT_CHARACTERS[c] === 1) return true;
  }
  return text.includes('XCUIElementType');
}

/** What kind of locator the text is, or undefined when it reads like a description. */
export function locatorKind(text: string): string | undefined {
  if (!mayBeLocator(text)) return undefined;
  const t = text.trim();
  for (const [re, kind] of LOCATORS) if (re.test(t)) return kind;
  return undefined;
}

// Android: dot-separated Java identifiers, at least two segments, each starting with a letter.
const ANDROID_PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+$/;
// iOS: reverse-DNS of letters, digits, hyphens (no underscores), at least two segments.
const IOS_BUNDLE = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

export const isAndroidPackage = (s: string): boolean => ANDROID_PACKAGE.test(s);
export const isIosBundleId = (s: string): boolean => IOS_BUNDLE.test(s);

/** A URL or deep link needs a scheme ("https:", "myapp:"). */
export const looksLikeUrl = (s: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(s) || s.startsWith('${');
