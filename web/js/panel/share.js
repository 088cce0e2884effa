// share.js — the panel's Share folder: Copy link (the app makes the link: handlers.onCopyLink), the read-only field
// that shows it, and its status line. The Record button (record.js) is placed after Copy link.

import { t } from '../i18n/i18n.js';

/** Adds the Share folder to `gui`; returns { setLink(url, note), clearLink() }. */
export function addShareFolder(gui, els, tr, handlers) {
  const share = { copy: () => handlers.onCopyLink(), link: '' };
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

  return {
    setLink(url, note = '') {
      share.link = url;
      linkCtrl.updateDisplay();
      els.linkStatus.textContent = note;
    },
    /** The shown link no longer matches the settings: clear it rather than offer a stale one. */
    clearLink() {
      share.link = '';
      linkCtrl.updateDisplay();
      els.linkStatus.textContent = '';
    },
  };
}
