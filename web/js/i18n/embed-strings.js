// embed-strings.js — the words for the embed element's poster and its reasons for not running (embed/), merged into i18n.js's tables (the same keys in both languages).

export const embedStrings = {
  en: {
  },
  zh: {
  },
};
