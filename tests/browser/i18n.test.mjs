// i18n.test.mjs — English and Simplified Chinese: the string tables (checked in Node), the language choice
// (?lang=zh|en wins over the browser's languages, which win over English), <html lang>, every text the page
// shows in the chosen language (the panel, the Record button and its status lines, the plots' names and
// captions), switching live from the panel, and translated text written as text only.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, chooseScene, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';
import { STRINGS, LANGUAGES, detectLanguage, normalizeLanguage, setLanguage, t, plural } from '../../web/js/i18n/i18n.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const slots = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('the tables: Chinese has every English key, no empty strings, the same {slots}', () => {
  const en = STRINGS.en;
  for (const lang of LANGUAGES) {
    const table = STRINGS[lang];
    for (const key of Object.keys(en)) {
      assert.ok(Object.hasOwn(table, key), `${lang} has ${key}`);
      assert.ok(typeof table[key] === 'string' && table[key].trim() !== '', `${lang}.${key} is text`);
      assert.deepEqual(slots(table[key]), slots(en[key]), `${lang}.${key} has the slots of the English`);
      assert.doesNotMatch(table[key], /<[a-z!/]/i, `${lang}.${key} has no markup`);
    }
    for (const key of Object.keys(table)) assert.ok(Object.hasOwn(en, key) || key.startsWith('scene.'), `${lang}.${key} is a known key`);
  }
  // Chinese is really Chinese: every label, title and message has CJK characters (key-caps and arrows aside).
  const sameInBoth = ['keys.period', 'keys.r', 'keys.arrows', 'keys.plusMinus', 'desc.listSeparator'];
  for (const key of Object.keys(en)) {
    if (!sameInBoth.includes(key)) assert.match(STRINGS.zh[key], /[\u4e00-\u9fff]/, `zh.${key} is translated`);
  }
});

test('the language: ?lang wins, then the browser languages, then English; t() fills slots as text', () => {
  const cases = [
    [{ search: '?lang=zh', languages: ['en-US', 'en'] }, 'zh'],
    [{ search: '?lang=en', languages: ['zh-CN', 'zh'] }, 'en'],
    [{ search: '?x=1&lang=zh-CN', languages: [] }, 'zh'],
    [{ search: '', languages: ['zh-CN', 'en'] }, 'zh'],
    [{ search: '', languages: ['fr-FR', 'zh-TW', 'en'] }, 'zh'],
    [{ search: '', languages: ['fr-FR', 'en-GB'] }, 'en'],
    [{ search: '', languages: ['fr-FR', 'de'] }, 'en'],
    [{ search: '?lang=xx', languages: ['zh-Hans-CN'] }, 'zh'],
    [{ search: '?lang=%ZZ', languages: [] }, 'en'],
    [{}, 'en'],
  ];
  for (const [where, want] of cases) assert.equal(detectLanguage(where), want, JSON.stringify(where));
  assert.equal(normalizeLanguage('ZH_cn'), 'zh');
  assert.equal(normalizeLanguage('english'), null);
  try {
    setLanguage('zh');
    assert.equal(t('error.link', { error: '<b>x</b>' }), '无法打开此链接：<b>x</b>', 'values go in verbatim (callers write text)');
    assert.equal(t('no.such.key'), 'no.such.key');
    assert.equal(plural('desc.particles', 1600), '1,600 个粒子');
    setLanguage('en');
    assert.equal(plural('desc.particles', 1), '1 particle');
    assert.equal(plural('desc.particles', 2), '2 particles');
    assert.equal(t('scene.flag'), 'scene.flag', 'English scene names come from the scenes themselves');
  } finally {
    setLanguage('en');
  }
});

/**
 * Every text of the page chrome a user sees or hears, as [where, text]: the names of the panel's controls and
 * folders (its lil-gui, shown ones), the page's static texts (data-i18n), accessible labels and help texts,
 * the scene title, the picker, the view's description. (Controls other modules add to the panel are theirs.)
 */
function visibleTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const { gui } = window.minipbd.app.ui;
    for (const c of gui.controllersRecursive()) if (c.domElement.checkVisibility()) out.push([c.domElement.dataset.param ?? 'control', c.$name.textContent]);
    for (const f of [gui, ...gui.foldersRecursive()]) if (f.domElement.checkVisibility()) out.push([f.domElement.id, f.$title.textContent]);
    for (const el of document.querySelectorAll('[data-i18n], #scene-title, #view-description, #readout dd, #scene-select option, #help-texts span')) {
      if (el.textContent.trim()) out.push([el.id || el.dataset.i18n || el.tagName, el.textContent.trim()]);
    }
    for (const el of document.querySelectorAll('[data-i18n-aria-label]')) out.push([`${el.id}[aria-label]`, el.getAttribute('aria-label')]);
    out.push(['title', document.title], ['placeholder', document.getElementById('link-field').placeholder]);
    return out;
  });
}

test('?lang=zh: the whole page in Chinese, <html lang="zh-CN">, whatever the browser language', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 }, locale: 'en-US' });
  const { page, problems } = await openPage(env.browser, `${env.url}?lang=zh`, { context });
  try {
    await chooseScene(page, 'flag');
    assert.equal(await page.evaluate(() => navigator.language), 'en-US');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.equal(await page.locator('#pause').textContent(), '暂停');
    assert.equal(await page.locator('#scene-title').textContent(), '风中撕裂的旗帜：用力拉就会撕开');
    assert.equal(await page.locator('#scene-select option:checked').textContent(), '风中撕裂的旗帜');
    assert.equal(await page.locator('#folder-wind-title').textContent(), '风');
    assert.equal(await page.locator('#folder-colliders-title').textContent(), '碰撞体');
    assert.equal(await page.locator('#collider-0-restitution').evaluate((el) => el.getAttribute('aria-labelledby').split(' ').map((id) => document.getElementById(id).textContent).join(' ')), 'pole 弹性');
    assert.equal(await page.locator('#param-maxSpeed').evaluate((el) => document.getElementById(el.getAttribute('aria-labelledby')).textContent), '速度上限（米/秒）');
    assert.equal(await page.locator('#param-iterations').evaluate((el) => document.getElementById(el.getAttribute('aria-labelledby')).textContent), '迭代次数');
    assert.match(await page.locator('#view').getAttribute('aria-label'), /^模拟视图/);
    await page.waitForFunction(() => /^风中撕裂的旗帜。[\d,]+ 个粒子/.test(document.getElementById('view-description').textContent), null, { timeout: READY_TIMEOUT });

    // Nothing the page chrome shows is left in English: no text equals an English string, every one has CJK
    // characters unless it is a number, a key-cap, a unit or a name from the scene (object names).
    const english = new Set(Object.values(STRINGS.en));
    const leftovers = (await visibleTexts(page)).filter(([, s]) => english.has(s) && !/^[.R+−←↑→↓ ]+$/.test(s));
    assert.deepEqual(leftovers, [], 'no English left');
    const sceneNames = await page.evaluate(() => [...window.minipbd.scene.objects, ...window.minipbd.scene.colliders].map((o) => o.name));
    assert.deepEqual(sceneNames, ['flag', 'pole']);
    const latin = (await visibleTexts(page)).filter(([, s]) => !/[\u4e00-\u9fff]/.test(s) && !/^[\d,.\s–+−←↑→↓R]*$/.test(s) && !sceneNames.includes(s));
    assert.deepEqual(latin, [], 'every label has Chinese text');

    // Messages too (a bad link), and the keyboard still works the same.
    await page.evaluate(() => { location.hash = '#s=9.abc'; });
    await page.locator('#message').waitFor({ state: 'visible', timeout: READY_TIMEOUT });
    assert.match(await page.locator('#message-text').textContent(), /^无法打开此链接：/);
    await page.locator('#view').focus();
    await page.keyboard.press('Space');
    assert.equal(await page.locator('#pause').textContent(), '继续');
    const steps = await page.evaluate(() => window.minipbd.world.stats().steps);
    await page.keyboard.press('.');
    assert.equal(await page.evaluate(() => window.minipbd.world.stats().steps), steps + 1);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the browser language decides without ?lang: English for en-US, Chinese for zh-CN; ?lang=en overrides', { timeout: TEST_TIMEOUT }, async () => {
  for (const [locale, query, lang, pause] of [['en-US', '', 'en', 'Pause'], ['zh-CN', '', 'zh-CN', '暂停'], ['zh-CN', '?lang=en', 'en', 'Pause']]) {
    const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 }, locale });
    const { page, problems } = await openPage(env.browser, env.url + query, { context });
    try {
      const r = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        pause: document.getElementById('pause').textContent,
        picker: document.getElementById('language-select').value,
        hint: document.querySelector('.hint').textContent,
      }));
      assert.deepEqual([r.lang, r.pause], [lang, pause], `${locale} ${query}`);
      assert.equal(r.picker, lang.slice(0, 2), 'the language picker shows it');
      if (lang === 'en') {
        assert.equal(await page.locator('#scene-title').textContent(), await page.evaluate(() => window.minipbd.scene.name), 'English shows the scene\'s own name');
        const chinese = (await visibleTexts(page)).filter(([, s]) => /[\u4e00-\u9fff]/.test(s) && s !== '简体中文');
        assert.deepEqual(chinese, [], 'no Chinese in the English page');
      } else {
        assert.match(r.hint, /拖动/);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('switching language in the panel: live, kept in ?lang (the link fragment untouched), and after a reload', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 }, locale: 'en-US' });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await page.click('#copy-link');
    await page.waitForFunction(() => location.hash.startsWith('#s=1.'), null, { timeout: READY_TIMEOUT });
    const hash = await page.evaluate(() => location.hash);
    await page.evaluate(() => { window.__world = window.minipbd.world; });
    await page.click('#pause');
    await page.selectOption('#language-select', 'zh');
    const r = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      pause: document.getElementById('pause').textContent,
      title: document.getElementById('scene-title').textContent,
      folder: document.getElementById('folder-solver-title').textContent,
      search: location.search,
      hash: location.hash,
      same: window.__world === window.minipbd.world,
      describes: document.getElementById('view-description').textContent,
      picker: document.querySelector('#scene-select option:checked').textContent,
    }));
    assert.deepEqual(r, {
      lang: 'zh-CN', pause: '继续', title: '悬挂的布料：2 米 × 2 米，40 × 40，固定在上方两角', folder: '求解器',
      search: '?lang=zh', hash, same: true, describes: r.describes, picker: '悬挂的布料',
    });
    assert.match(r.describes, /^悬挂的布料。1,600 个粒子，[\d,]+ 个约束。已暂停。/);

    await page.reload();
    await page.waitForFunction(() => window.minipbd?.ready === true, null, { timeout: READY_TIMEOUT });
    assert.equal(await page.locator('#pause').textContent(), '暂停', 'a reload keeps Chinese');
    assert.equal(await page.evaluate(() => location.hash), hash, 'and the link');
    await page.selectOption('#language-select', 'en');
    assert.equal(await page.locator('#pause').textContent(), 'Pause');
    assert.equal(await page.evaluate(() => [document.documentElement.lang, location.search].join(' ')), 'en ?lang=en');
    await waitSteps(page, 5);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

/** The Record button's label and tooltip, its status line, the plots' accessible names and their drawn captions. */
const recorderAndPlots = (page) => page.evaluate(() => ({
  record: document.getElementById('record').textContent,
  recordTitle: document.getElementById('record').title,
  status: document.getElementById('record-status').textContent,
  convergence: document.getElementById('convergence-plot').getAttribute('aria-label'),
  energy: document.getElementById('energy-plot').getAttribute('aria-label'),
  captions: window.minipbd.app.state.plots?.captions.flat().filter(Boolean) ?? null,
}));

test('the Record button, its status lines and the plots speak Chinese with ?lang=zh and English with ?lang=en, and switch live', { timeout: TEST_TIMEOUT }, async () => {
  const cjk = /[\u4e00-\u9fff]/;
  for (const lang of ['zh', 'en']) {
    const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 }, locale: lang === 'zh' ? 'en-US' : 'zh-CN' });
    const { page, problems } = await openPage(env.browser, `${env.url}?lang=${lang}`, { context });
    try {
      await page.check('#plots');
      await waitSteps(page, 10);
      await page.waitForFunction(() => window.minipbd.app.state.plots?.captions, null, { timeout: READY_TIMEOUT });
      let r = await recorderAndPlots(page);
      if (lang === 'zh') {
        assert.equal(r.record, '录制');
        assert.match(r.recordTitle, cjk);
        assert.equal(r.convergence, '上一步中每次求解迭代后的平均约束误差');
        assert.equal(r.energy, '最近 30 秒的动能和势能');
        assert.ok(r.captions.length >= 2 && r.captions.every((c) => cjk.test(c)), `captions: ${r.captions}`);
      } else {
        assert.equal(r.record, 'Record');
        assert.equal(r.convergence, 'Mean constraint error after each solver pass of the last step');
        assert.equal(r.energy, 'Kinetic and potential energy over the last 30 seconds');
        assert.match(r.captions[0], /^mean error per pass \(log\), [\d,]+ passes$/);
        assert.equal(r.captions.at(-1), 'kinetic (red), potential (blue), J');
      }

      // Recording: the button becomes Stop, the status says what it does.
      await page.click('#record');
      await page.waitForFunction(() => window.minipbd.app.recorder.recording, null, { timeout: READY_TIMEOUT });
      r = await recorderAndPlots(page);
      if (lang === 'zh') {
        assert.equal(r.record, '停止并生成链接');
        assert.equal(r.status, '正在从场景开头录制：拖动布料或碰撞体，然后按“停止”。');
      } else {
        assert.equal(r.record, 'Stop and make link');
        assert.equal(r.status, 'Recording from the start of the scene: drag the cloth or a collider, then press Stop.');
      }
      assert.equal(cjk.test(r.record + r.status + r.recordTitle), lang === 'zh');

      // Switched live, mid-recording: the button, its tooltip and the status line follow; so do the captions.
      const other = lang === 'zh' ? 'en' : 'zh';
      await page.selectOption('#language-select', other);
      await page.waitForFunction((zh) => window.minipbd.app.state.plots.captions.flat().filter(Boolean).every((c) => /[\u4e00-\u9fff]/.test(c) === zh), other === 'zh', { timeout: READY_TIMEOUT });
      r = await recorderAndPlots(page);
      assert.equal(r.record, other === 'zh' ? '停止并生成链接' : 'Stop and make link');
      assert.equal(cjk.test(r.status), other === 'zh');
      assert.equal(cjk.test(r.recordTitle), other === 'zh');
      assert.equal(cjk.test(r.convergence), other === 'zh');

      // Stopped: the result line, in the language now shown.
      await waitSteps(page, 10);
      const fragment = await page.evaluate(() => window.minipbd.app.stopRecording());
      assert.match(fragment, /^s=2\./);
      r = await recorderAndPlots(page);
      if (other === 'zh') {
        assert.equal(r.record, '录制');
        assert.match(r.status, /^已录制 \d+ 步（[\d.]+ 秒，抓取 0 次）：链接会回放它们。$/);
      } else {
        assert.equal(r.record, 'Record');
        assert.match(r.status, /^Recorded \d+ steps \([\d.]+ s, 0 grabs\): the link replays them\.$/);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});
