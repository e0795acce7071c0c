// A lobby card: a section titled by a string key (translated again with the page), its class named after the key's last part ("card-playNow").

import { h } from '../dom.js';
import { t } from '../i18n.js';

export const card = (titleKey, ...children) => h('section', { class: `card card-${titleKey.split('.').pop()}` }, h('h2', { 'data-i18n': titleKey }, t(titleKey)), ...children);
