// language.js — the panel's language picker (its <option>s carry the language's code and lang attribute) and the
// page's static text (index.html: data-i18n for text, data-i18n-aria-label, data-i18n-content for meta), which
// follows the language like every text registered with the panel's tr().

import { t, getLanguage, LANGUAGES, LANGUAGE_NAMES, HTML_LANG } from '../i18n/i18n.js';

/** A panel folder (panel.js FOLDERS): the picker, then the footer; also showLanguage() after a change. */
export function buildLanguage(panel) {
  const { doc, gui, els, tr, handlers } = panel;
  const language = { lang: getLanguage() };
  const picker = gui.add(language, 'lang', Object.fromEntries(LANGUAGES.map((l) => [LANGUAGE_NAMES[l], l])));
  picker.$select.id = 'language-select';
  [...picker.$select.options].forEach((o, i) => {
    o.value = LANGUAGES[i];
    o.lang = HTML_LANG[LANGUAGES[i]];
  });
  tr(() => picker.name(t('language')));
  picker.onChange((l) => {
    panel.ui.setLanguage(l);
    handlers.onLanguage?.(l);
  });
  gui.$children.append(els.footer);

  tr(() => {
    for (const el of doc.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
    for (const el of doc.querySelectorAll('[data-i18n-aria-label]')) el.setAttribute('aria-label', t(el.dataset.i18nAriaLabel));
    for (const el of doc.querySelectorAll('[data-i18n-content]')) el.setAttribute('content', t(el.dataset.i18nContent));
    doc.title = t('page.title');
    doc.documentElement.lang = HTML_LANG[getLanguage()];
  });
  return {
    showLanguage() {
      language.lang = getLanguage();
      picker.updateDisplay();
    },
  };
}
