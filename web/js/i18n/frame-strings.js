// frame-strings.js — the words for the iframe's two-way postMessage API (embed/frame-api.js), merged into i18n.js's tables (the same keys in both languages).

export const frameStrings = {
  en: {
  },
  zh: {
  },
};
