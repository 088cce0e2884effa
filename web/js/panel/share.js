// share.js — the panel's Share folder: Copy link (the app makes the link: handlers.onCopyLink), the read-only field
// that shows it, and its status line; Copy embed code (handlers.onCopyEmbed: the HTML for another page, embed-code.js)
// and the read-only box that shows that code once made. The Record button (record.js) is placed after Copy link.

import { t } from '../i18n/i18n.js';

/** Adds the Share folder to `gui`; returns { setLink(url, note), clearLink(), setEmbedCode(code, note) }. */
export function addShareFolder(gui, els, tr, handlers) {
  const share = { copy: () => handlers.onCopyLink(), link: '', embed: () => handlers.onCopyEmbed?.() };
  const shareFolder = gui.addFolder('');
  shareFolder.domElement.id = 'folder-share';
  tr(() => shareFolder.title(t('folder.share')));
  shareFolder.$children.append(els.shareNote);
  const copyCtrl = shareFolder.add(share, 'copy');
  copyCtrl.$button.id = 'copy-link';
  copyCtrl.domElement.classList.add('primary');
  tr(() => copyCtrl.name(t('share.copy')));
  const linkCtrl = shareFolder.add(share, 'link');
  const linkField = linkCtrl.$input;
  linkField.id = 'link-field';
  linkField.readOnly = true;
  linkField.addEventListener('focus', () => linkField.select());
  tr(() => {
    linkCtrl.name(t('share.field'));
    linkField.placeholder = t('share.placeholder');
  });
  shareFolder.$children.append(els.linkStatus);
  const embedCtrl = shareFolder.add(share, 'embed');
  embedCtrl.$button.id = 'copy-embed';
  tr(() => embedCtrl.name(t('share.copyEmbed')));
  // The code is several lines (an <input> would join them): a read-only textarea, shown once there is code in it.
  const doc = els.linkStatus.ownerDocument;
  const embedField = doc.createElement('textarea');
  embedField.id = 'embed-field';
  embedField.className = 'embed-field';
  embedField.readOnly = true;
  embedField.rows = 5;
  embedField.spellcheck = false;
  embedField.hidden = true;
  embedField.addEventListener('focus', () => embedField.select());
  const embedStatus = doc.createElement('p');
  embedStatus.id = 'embed-status';
  embedStatus.className = 'panel-note';
  embedStatus.setAttribute('role', 'status');
  embedStatus.setAttribute('aria-live', 'polite');
  tr(() => embedField.setAttribute('aria-label', t('share.embedField')));
  shareFolder.$children.append(embedField, embedStatus);

  return {
    setLink(url, note = '') {
      share.link = url;
      linkCtrl.updateDisplay();
      els.linkStatus.textContent = note;
    },
    /** Shows the embed code (as text: it is the field's value) and what became of copying it. */
    setEmbedCode(code, note = '') {
      embedField.value = code;
      embedField.hidden = code === '';
      embedStatus.textContent = note;
    },
    /** The shown link no longer matches the settings: clear it rather than offer a stale one. */
    clearLink() {
      share.link = '';
      linkCtrl.updateDisplay();
      els.linkStatus.textContent = '';
    },
  };
}

/** A panel folder (panel.js FOLDERS): the Share folder; setLink, setEmbedCode and clearLink are the panel's. */
export function buildShare({ gui, els, tr, handlers }) { return addShareFolder(gui, els, tr, handlers); }
