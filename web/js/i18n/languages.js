// languages.js — the languages the page and the element speak, and how a language tag names one of them.

/** The languages we speak; the first is the fallback. */
export const LANGUAGES = ['en', 'zh'];

/** 'zh-CN', 'zh_Hans', 'ZH' -> 'zh'; 'en-GB' -> 'en'; anything else -> null. */
export function normalizeLanguage(tag) {
  if (typeof tag !== 'string') return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.includes(primary) ? primary : null;
}
