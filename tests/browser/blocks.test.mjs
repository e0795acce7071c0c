// Browser tests of blocks: Ann (an account, 1280x720) blocks Bob (an account, a phone) from his player page — the confirm dialog's one sentence, in view, audited with axe; then "Unblock" — and in a room where both sit Bob's chat line never reaches her page while hers does (and hers reaches him); her own page lists Bob under "Blocked players" (axe; in view at 1280x720 and at a phone's width) and Unblock takes him off; Bob, on his phone, cancels a block of Ann and nothing changes; a guest gets no Block, an account none on its own page; the dialog in Chinese and the dark theme (axe), Escape closing it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, assertInView, assertShown, byId, gotoLobby, createRoom, openRoom, waitOnline,
  seriousViolations, screenshot, SIZES, WAIT_MS, registerAccount } from './harness.mjs';

// No first-move abort while the two chat in the new room.
const hall = useHall('blocks', { env: { KIBITZ_FIRST_MOVE_SECS: '600' } });

const DESK720 = { viewport: { width: 1280, height: 720 } };

/** Opens the player page of `name` and waits for its title. */
async function openPlayerPage(player, name) {
  await player.page.goto(`${hall.server.url}?player=${encodeURIComponent(name)}`);
  await waitOnline(player.page);
  await byId(player.page, 'player-title').filter({ hasText: name }).waitFor({ timeout: WAIT_MS });
}

/** The list the server keeps for the account signed in on `page` (GET /api/blocks). */
const serverBlocks = (page) => page.evaluate(async () => {
  const res = await fetch('/api/blocks', { headers: { Authorization: `Bearer ${localStorage.getItem('kibitz.token')}` } });
  return (await res.json()).blocked;
});

/** Sends a chat line from `player`'s room page and waits until its own page shows it (the
 *  server has taken it: a line after it reaches every page after it). */
async function say(player, text) {
  await byId(player.page, 'chat-input').fill(text);
  await byId(player.page, 'chat-input').press('Enter');
  await byId(player.page, 'chat-list').locator('.chat-text').filter({ hasText: text }).waitFor({ timeout: WAIT_MS });
}

async function noSeriousViolations(player, where) {
  assert.deepEqual(await seriousViolations(player.page), [], `${player.name}: axe on ${where}`);
}

test('an account blocks another from his page: his chat no longer reaches her, her page lists him, Unblock takes him off', async () => {
  const ann = await openPlayer(hall.browser, { name: 'Ann', ...DESK720 });
  const bob = await openPlayer(hall.browser, { name: 'Bob', ...SIZES.phone });
  try {
    for (const p of [ann, bob]) {
      await gotoLobby(p, hall.server);
      await registerAccount(p, p.name);
    }
    const bobId = await byId(bob.page, 'my-name').getAttribute('data-player');

    // Ann on Bob's page: "Block" beside his name, asked first in one sentence.
    await openPlayerPage(ann, 'Bob');
    await byId(ann.page, 'btn-block').click();
    const dialog = byId(ann.page, 'block-dialog');
    await dialog.waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'block-title').textContent(), 'Block Bob?');
    assert.equal(await byId(ann.page, 'block-body').textContent(),
      'Bob\'s chat will be hidden from you, their challenges won\'t reach you, and you won\'t be paired with them. They are not told.');
    // Cancel has the focus: Enter at once blocks nobody.
    assert.equal(await ann.page.evaluate(() => document.activeElement?.dataset?.testid), 'btn-block-cancel');
    await assertInView(ann, ['block-dialog', 'btn-block-confirm', 'btn-block-cancel'], 'the block dialog');
    await noSeriousViolations(ann, 'the block dialog');
    await screenshot(ann.page, 'block-dialog-desktop');
    await byId(ann.page, 'btn-block-confirm').click();
    await dialog.waitFor({ state: 'hidden', timeout: WAIT_MS });
    // The same button says "Unblock" now and keeps the focus; the change is heard.
    const unblockBtn = byId(ann.page, 'btn-unblock');
    await unblockBtn.waitFor({ timeout: WAIT_MS });
    assert.equal(await unblockBtn.textContent(), 'Unblock');
    assert.equal(await unblockBtn.getAttribute('aria-label'), 'Unblock Bob');
    assert.equal(await ann.page.evaluate(() => document.activeElement?.dataset?.testid), 'btn-unblock');
    await byId(ann.page, 'blocks-live').filter({ hasText: 'You blocked Bob.' }).waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await serverBlocks(ann.page), [{ player: bobId, name: 'Bob' }]);
    // Read again after a reload: still blocked.
    await openPlayerPage(ann, 'Bob');
    await byId(ann.page, 'btn-unblock').waitFor({ timeout: WAIT_MS });

    // A room where both sit: Bob's line, then Ann's. Ann's page shows hers, never his; Bob's
    // shows both (a block is one way).
    const room = await createRoom(ann, hall.server);
    await openRoom(bob, hall.server, room);
    for (const p of [ann, bob]) await byId(p.page, 'player-name-white').filter({ hasText: 'Bob' }).waitFor({ timeout: WAIT_MS });
    await say(bob, 'hello from Bob');
    await say(ann, 'hello from Ann');
    await byId(bob.page, 'chat-list').locator('.chat-text').filter({ hasText: 'hello from Ann' }).waitFor({ timeout: WAIT_MS });
    const annLines = await byId(ann.page, 'chat-list').locator('.chat-text').allTextContents();
    assert.ok(annLines.includes('hello from Ann'), JSON.stringify(annLines));
    assert.ok(!annLines.includes('hello from Bob'), `Bob's line reached Ann: ${JSON.stringify(annLines)}`);

    // Ann's own page (the header's name): Bob under "Blocked players", a link to his page and
    // an Unblock button, in view at 1280x720 and at a phone's width.
    await byId(ann.page, 'my-name').click();
    await byId(ann.page, 'player-title').filter({ hasText: 'Ann' }).waitFor({ timeout: WAIT_MS });
    const item = ann.page.locator(`[data-testid="blocked-player"][data-player="${bobId}"]`);
    await item.waitFor({ timeout: WAIT_MS });
    assert.equal(await item.locator('a').textContent(), 'Bob');
    assert.equal(await item.locator('[data-testid="btn-blocked-unblock"]').getAttribute('aria-label'), 'Unblock Bob');
    assert.equal(await byId(ann.page, 'btn-block').count(), 0, 'no Block on one\'s own page');
    await assertShown(ann, ['blocked-players', 'btn-blocked-unblock'], 'the blocked players at 1280x720');
    await noSeriousViolations(ann, 'the blocked players');
    await ann.page.setViewportSize({ width: 390, height: 844 });
    await assertShown(ann, ['blocked-players', 'btn-blocked-unblock'], 'the blocked players at a phone\'s width');
    await screenshot(ann.page, 'blocked-players-narrow');
    await ann.page.setViewportSize(DESK720.viewport);

    // Unblock: the line goes, the list says none, the focus is on its heading, heard.
    await item.locator('[data-testid="btn-blocked-unblock"]').click();
    await byId(ann.page, 'blocked-none').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'blocked-player').count(), 0);
    assert.equal(await ann.page.evaluate(() => document.activeElement?.id), 'blocked-title');
    await byId(ann.page, 'blocks-live').filter({ hasText: 'You unblocked Bob.' }).waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await serverBlocks(ann.page), []);
    await noSeriousViolations(ann, 'the empty list of blocked players');
    // His page offers "Block" again.
    await openPlayerPage(ann, 'Bob');
    await byId(ann.page, 'btn-block').waitFor({ timeout: WAIT_MS });

    // Bob, on his phone, asks to block Ann and cancels: the dialog in view, nothing changes.
    await openPlayerPage(bob, 'Ann');
    await byId(bob.page, 'btn-block').click();
    await byId(bob.page, 'block-dialog').waitFor({ timeout: WAIT_MS });
    await assertInView(bob, ['block-dialog', 'btn-block-confirm', 'btn-block-cancel'], 'the block dialog on a phone');
    await noSeriousViolations(bob, 'the block dialog on a phone');
    await screenshot(bob.page, 'block-dialog-phone');
    await byId(bob.page, 'btn-block-cancel').click();
    await byId(bob.page, 'block-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
    assert.equal(await bob.page.evaluate(() => document.activeElement?.dataset?.testid), 'btn-block');
    assert.deepEqual(await serverBlocks(bob.page), []);
    assertClean(ann, bob);
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});

test('a guest is offered no Block, an account none on its own page; the dialog in Chinese and the dark theme, Escape closing it', async () => {
  const cy = await openPlayer(hall.browser, { name: 'Cy', ...DESK720 });
  try {
    await gotoLobby(cy, hall.server);
    await openPlayerPage(cy, 'Bob');
    // The challenge button shows once the welcome is in: by then a Block button would be too.
    await byId(cy.page, 'btn-challenge').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(cy.page, 'block-control').count(), 0);
    await registerAccount(cy, 'Cyril');
    await openPlayerPage(cy, 'Cyril');
    await byId(cy.page, 'blocked-none').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(cy.page, 'block-control').count(), 0);

    // In Chinese and the dark theme: the dialog in those words, audited; Escape closes it and
    // gives the focus back, nothing blocked.
    await cy.page.emulateMedia({ colorScheme: 'dark' });
    await byId(cy.page, 'lang-select').selectOption('zh');
    await openPlayerPage(cy, 'Bob');
    await byId(cy.page, 'btn-block').click();
    await byId(cy.page, 'block-dialog').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(cy.page, 'block-title').textContent(), '屏蔽 Bob？');
    await noSeriousViolations(cy, 'the block dialog in Chinese, dark');
    await cy.page.keyboard.press('Escape');
    await byId(cy.page, 'block-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
    assert.equal(await cy.page.evaluate(() => document.activeElement?.dataset?.testid), 'btn-block');
    assert.deepEqual(await serverBlocks(cy.page), []);
    assertClean(cy);
  } finally {
    await cy.context.close();
  }
});
