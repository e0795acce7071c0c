// The header's "Moderation" link, for moderators only: once an account is welcomed, the page asks GET /api/moderation/sanctions once with its token (200: a moderator; 401 or 403: not) and shows the link to /?moderation on the answer; a guest never asks.

import * as api from './api.js';
import { t } from './i18n.js';

/**
 * Adds the (hidden) link to `nav`. `app` gives net (its token), isAccount() and
 * viewLink(route, attrs, ...children). Returns { onReady() }: after every welcome.
 */
export function createModLink(app, nav) {
  const link = app.viewLink({ page: 'moderation' },
    { 'data-testid': 'header-link-moderation', 'data-i18n': 'modx.link', hidden: true }, t('modx.link'));
  nav.append(link);
  // The token asked about (one question per account and page load), and its answer.
  let asked = null;
  let moderator = false;

  function draw() {
    link.hidden = !(moderator && app.isAccount() && app.net.token === asked);
  }

  return {
    onReady() {
      const token = app.net.token;
      if (!app.isAccount() || !token) {
        draw();
        return;
      }
      if (token === asked) {
        draw();
        return;
      }
      asked = token;
      moderator = false;
      draw();
      // A refusal is an answer, not a failure: the request never throws (api.js).
      api.moderationSanctions(token).then((res) => {
        if (asked !== token) return;
        moderator = res.ok;
        draw();
      });
    },
  };
}
