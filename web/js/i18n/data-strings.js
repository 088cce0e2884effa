// data-strings.js — the words for data out: the plots' axes, hover and CSV export, the screenshot and fullscreen buttons (panel/), merged into i18n.js's tables (the same keys in both languages).

export const dataStrings = {
  en: {
  },
  zh: {
  },
};
