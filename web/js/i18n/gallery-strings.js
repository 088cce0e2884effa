// gallery-strings.js — the words for the gallery page (gallery.html) and the scenes' one-line descriptions, merged into i18n.js's tables (the same keys in both languages).

export const galleryStrings = {
  en: {
  },
  zh: {
  },
};
