// element-strings.js — the words of the embed element (<minipbd-scene>): its poster, its reasons for not running
// and the built-in scenes' names, by language. The element reads these instead of i18n.js's tables, which hold
// every word of the demo page as well: a page that embeds one scene downloads only what the element says.

import { embedStrings } from './embed-strings.js';
import { sceneNames } from './scene-names.js';
import { LANGUAGES } from './languages.js';

export { normalizeLanguage } from './languages.js';

/** The element's tables, by language: the same keys and words as i18n.js's STRINGS for these areas. */
export const ELEMENT_STRINGS = Object.fromEntries(LANGUAGES.map((lang) => [lang, { ...embedStrings[lang], ...sceneNames[lang] }]));
