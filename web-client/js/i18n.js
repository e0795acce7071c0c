// Every UI string of the page in English and Simplified Chinese, the language choice (browser default, switchable, remembered) and the label helpers.

import { clockKey } from './record.js';

const LANG_KEY = 'kibitz.lang';

export const LANGS = { en: 'English', zh: '中文' };

export const STRINGS = {
  en: {
    'app.title': 'Kibitz',
    'app.tagline': 'Gomoku · Renju · Othello · Connect Four',
    'app.language': 'Language',
    'app.skip': 'Skip to content',
    'net.connecting': 'Connecting to the server…',
    'net.offline': 'Offline — reconnecting in {s} s…',
    'net.retry': 'Retry now',
    'net.online': 'Online',
    'net.notSent': 'Not connected — try again in a moment.',

    'lobby.name': 'Your name',
    'lobby.nameSave': 'Save',
    'lobby.nameSaved': 'Name saved.',
    'lobby.playNow': 'Play now',
    'lobby.playNowHint': 'Paired with whoever else is waiting for the same game and clock.',
    'lobby.waiting': '{n} waiting',
    'lobby.seeking': 'Looking for an opponent: {game}, {clock}…',
    'lobby.seekCancel': 'Cancel',
    'lobby.playBot': 'Play a bot instead',
    'lobby.botLevel': 'Bot level',
    'lobby.newGame': 'New game',
    'lobby.vsComputer': 'Play the computer',
    'lobby.order': 'Who starts',
    'lobby.order.you': 'You first',
    'lobby.order.computer': 'Computer first',
    'lobby.playComputer': 'Play',
    'lobby.moreOptions': 'More options',
    'lobby.game': 'Game',
    'lobby.size': 'Board size',
    'lobby.rule': 'Rule',
    'lobby.cols': 'Columns',
    'lobby.rows': 'Rows',
    'lobby.blocked': 'Blocked cells (click to toggle)',
    'lobby.blockedCell': 'Column {c}, row {r}',
    'lobby.random912': 'Random 9–12 board, one blocked cell',
    'lobby.classic76': 'Classic 7×6',
    'lobby.clock': 'Clock',
    'lobby.seat': 'Your seat',
    'lobby.seat.black': 'Black (moves first)',
    'lobby.seat.white': 'White',
    'lobby.seat.random': 'Random',
    'lobby.seat.none': 'Watch only',
    'lobby.opponent': 'Opponent',
    'lobby.opp.person': 'A person (share the link)',
    'lobby.opp.bot': 'A bot',
    'lobby.opp.botbot': 'Bot vs bot (watch)',
    'lobby.blackBot': 'Black bot level',
    'lobby.whiteBot': 'White bot level',
    'lobby.private': 'Private (not listed in the lobby)',
    'lobby.opening': 'Opening (optional): click points to place stones, black first',
    'lobby.openingClear': 'Clear',
    'lobby.openingUndo': 'Take back',
    'lobby.openingNone': 'No opening stones.',
    'lobby.create': 'Create game',
    'lobby.open': 'Open games',
    'lobby.openEmpty': 'No open games. Create one!',
    'lobby.live': 'Live games',
    'lobby.liveEmpty': 'No games in progress.',
    'lobby.more': '… and {n} more',
    'lobby.bots': 'Bots online',
    'lobby.botsEmpty': 'No bot is connected.',
    'lobby.join': 'Join',
    'lobby.watch': 'Watch',
    'lobby.watchGame': 'Watch this {game} game',
    'lobby.tv': 'Watch the best game full size (TV)',
    'tv.title': 'Kibitz TV',
    'tv.watching': 'Showing the best live game; the next one follows when it ends.',
    'tv.next': 'Game over. The next game starts in {s} s.',
    'tv.none': 'No live game right now: the next one to start will show here.',
    'tv.lobby': 'Lobby',
    'lobby.vs': '{a} vs {b}',
    'lobby.emptySeat': '(free)',
    'lobby.ply': 'move {n}',
    'lobby.spectators': '{n} watching',
    'lobby.botBusy': '{busy}/{capacity} games',
    'lobby.botLevels': 'levels {levels}',

    'game.gomoku': 'Gomoku',
    'game.renju': 'Renju',
    'game.othello': 'Othello',
    'game.connect4': 'Connect Four',
    'rule.freestyle': 'freestyle',
    'rule.standard': 'standard',
    'rule.renju': 'renju',
    'label.gomoku': 'Gomoku {size}×{size} · {rule}',
    'label.connect4': 'Connect Four {cols}×{rows}',
    'label.connect4blocked': 'Connect Four {cols}×{rows} · {n} blocked',
    'clock.none': 'untimed',
    'clock.move': '{s} s per move',
    'clock.fischer': '{m}+{s}',

    'seat.black': 'Black',
    'seat.white': 'White',
    'player.bot': 'bot',
    'player.online': 'online',
    'player.offline': 'offline',
    'player.empty': 'waiting for a player…',
    'player.you': 'you',
    'player.discs': '{n} discs',

    'room.back': '← Lobby',
    'room.loading': 'Loading room…',
    'room.spectators': 'Spectators',
    'room.waiting': 'Waiting for an opponent — share the link or invite a bot.',
    'room.toMove': '{seat} to move',
    'room.yourMove': 'Your move',
    'room.yourFirstMove': 'Your move — your clock starts with your first move',
    'room.abortIn': '{side} must move within {s} s or the game is aborted',
    'room.viewing': 'Viewing move {n} of {total}',
    'room.viewingLive': 'the game goes on.',
    'room.viewingOver': 'game over: {result}',
    'room.backToLive': 'Back to the game',
    'room.over': 'Game over',
    'room.moves': 'Moves',
    'room.opening': 'Opening',
    'lobby.openingRule': 'Opening rule',
    'lobby.openingRuleNone': 'none: black simply starts',
    'openingRule.swap2': 'Swap2',
    'openingRule.soosorv8': 'Soosõrv-8',
    'openingRule.taraguchi10': 'Taraguchi-10',
    'opening.you': 'Your choice',
    'opening.player': '{name} ({seat}) chooses',
    'opening.step.place': '{who}: place {count} stone(s) {area}; the next is {color}. Colours may still change hands.',
    'opening.step.swap2': '{who}: stay as {seat}, swap colours, or place two more stones (white, then black) and let the other player pick a colour.',
    'opening.step.swap': '{who}: keep {seat} (stay) or take {other} (swap).',
    'opening.step.color': '{who}: pick the colour to play for the rest of the game; white plays next.',
    'opening.step.declare': '{who}: declare how many 5th moves black must offer, 1 to {max}.',
    'opening.step.propose': '{who}: offer {n} 5th moves {proposeArea}, no two symmetrical: click them on the board, then Offer.',
    'opening.step.fifthEither': '{who}: place the 5th move {area}, or offer {n} 5th moves for white to choose from.',
    'opening.step.choose': '{who}: choose one of the {n} offered 5th moves by clicking it; then white plays.',
    'opening.area.board': 'anywhere',
    'opening.area.centre': 'on the centre',
    'opening.area.central': 'in the central {side}×{side} square',
    'opening.swap': 'Swap (take {seat})',
    'opening.stay': 'Stay ({seat})',
    'opening.take': 'Play {seat}',
    'opening.declare': 'Declare',
    'opening.declareLabel': 'Number of 5th moves',
    'opening.offerInstead': 'Offer {n} 5th moves instead',
    'opening.picked': '{k} of {n} picked',
    'opening.offer': 'Offer',
    'room.noMoves': 'No moves yet.',
    'room.first': 'First move',
    'room.prev': 'Previous move',
    'room.next': 'Next move',
    'room.last': 'Last move',
    'room.moveInput': 'Type a move',
    'room.moveInputPh': 'e.g. {ex}',
    'room.play': 'Play',
    'room.undo': 'Undo',
    'room.draw': 'Offer draw',
    'room.resign': 'Resign',
    'room.resignConfirm': 'Really resign?',
    'room.abort': 'Abort',
    'room.rematch': 'Rematch',
    'room.rematchAsked': 'Rematch offered — waiting for the opponent.',
    'room.rematchOffered': 'Your opponent wants a rematch.',
    'room.inviteBot': 'Invite bot',
    'room.botLevel': 'Bot level',
    'room.flip': 'Flip board',
    'room.copyLink': 'Copy link',
    'room.linkCopied': 'Link copied.',
    'room.undoAsked': 'Undo requested — waiting for the opponent.',
    'room.drawAsked': 'Draw offered — waiting for the opponent.',
    'room.undoOffer': '{name} asks to take back a move.',
    'room.drawOffer': '{name} offers a draw.',
    'room.touchHint': 'Tap a point to preview your stone, then tap the same point again to place it.',
    'room.touchHintOk': 'Got it',
    'room.forbiddenNote': '✕ marks a point forbidden for Black under renju rules (overline, double four, double three); hover or tap one to see which.',
    'room.forbiddenAt': '{cell} — {why}',
    'room.accept': 'Accept',
    'room.decline': 'Decline',
    'room.export': 'Record',
    'room.moveString': 'Move string',
    'room.copyMoves': 'Copy moves',
    'room.copied': 'Copied.',
    'room.export.json': 'JSON',
    'room.export.sgf': 'SGF',
    'room.export.psq': 'PSQ',
    'room.pass': 'pass',
    'room.score': '{black} – {white}',
    'room.rejoined': 'Reconnected.',

    'over.win': '{name} ({seat}) wins',
    'over.rating': 'Rating change: {change}',
    'over.review': 'Review the game',
    'over.lobby': 'Back to the lobby',
    'over.close': 'Close',
    'over.youWin': 'You win!',
    'over.youLose': 'You lose.',
    'over.draw': 'Draw',
    'over.aborted': 'Game aborted',
    'reason.five': 'five in a row',
    'reason.four': 'four in a row',
    'reason.count': 'on disc count',
    'reason.full': 'the board is full',
    'reason.resign': 'by resignation',
    'reason.timeout': 'on time',
    'reason.agreement': 'by agreement',
    'reason.abandoned': 'the opponent left',
    'reason.aborted': 'before both sides had moved: no result',

    'forbidden.overline': 'Forbidden for black: overline',
    'forbidden.double-four': 'Forbidden for black: double four',
    'forbidden.double-three': 'Forbidden for black: double three',
    'board.aria': 'Game board',
    'board.openingAria': 'Opening board',
    'board.column': 'column {n}',
    'board.blocked': 'Blocked cell',

    'chat.title': 'Chat',
    'chat.tab.game': 'Players',
    'chat.tab.spectators': 'Spectators',
    'chat.placeholder': 'Say something…',
    'chat.input': 'Chat message',
    'chat.send': 'Send',
    'chat.rematchOffer': '{name} offers a rematch.',

    'err.bad_json': 'The server could not read a message.',
    'err.unknown_type': 'The server did not understand a request.',
    'err.bad_request': 'Bad request.',
    'err.hello_required': 'Not signed in yet.',
    'err.bad_token': 'Your session expired; signed in again.',
    'err.no_such_room': 'No such room.',
    'err.room_full': 'Both seats are taken.',
    'err.not_a_player': 'Only the players can do that.',
    'err.not_your_turn': 'It is not your turn.',
    'err.illegal_move': 'Illegal move.',
    'err.forbidden': 'Forbidden point for black (renju).',
    'err.game_over': 'The game is over.',
    'err.no_bot_available': 'No bot is available right now.',
    'err.bad_game': 'That game setting is not valid.',
    'err.rate_limited': 'Slow down a little.',
    'err.too_long': 'That message is too long.',
  },
  zh: {
    'app.title': 'Kibitz',
    'app.tagline': '五子棋 · 连珠 · 黑白棋 · 四子棋',
    'app.language': '语言',
    'app.skip': '跳到正文',
    'net.connecting': '正在连接服务器…',
    'net.offline': '已断开 — {s} 秒后重新连接…',
    'net.retry': '立即重试',
    'net.online': '在线',
    'net.notSent': '未连接 — 请稍后再试。',

    'lobby.name': '你的名字',
    'lobby.nameSave': '保存',
    'lobby.nameSaved': '名字已保存。',
    'lobby.playNow': '快速开始',
    'lobby.playNowHint': '与等待同一棋种和用时的玩家配对。',
    'lobby.waiting': '{n} 人等待中',
    'lobby.seeking': '正在寻找对手：{game}，{clock}…',
    'lobby.seekCancel': '取消',
    'lobby.playBot': '改为与机器人对弈',
    'lobby.botLevel': '机器人等级',
    'lobby.newGame': '新对局',
    'lobby.vsComputer': '与电脑对弈',
    'lobby.order': '先后手',
    'lobby.order.you': '我先走',
    'lobby.order.computer': '电脑先走',
    'lobby.playComputer': '开始',
    'lobby.moreOptions': '更多选项',
    'lobby.game': '棋种',
    'lobby.size': '棋盘大小',
    'lobby.rule': '规则',
    'lobby.cols': '列数',
    'lobby.rows': '行数',
    'lobby.blocked': '障碍格（点击切换）',
    'lobby.blockedCell': '第 {c} 列，第 {r} 行',
    'lobby.random912': '随机 9–12 棋盘，一个障碍格',
    'lobby.classic76': '经典 7×6',
    'lobby.clock': '用时',
    'lobby.seat': '你的座位',
    'lobby.seat.black': '黑方（先手）',
    'lobby.seat.white': '白方',
    'lobby.seat.random': '随机',
    'lobby.seat.none': '只观战',
    'lobby.opponent': '对手',
    'lobby.opp.person': '真人（分享链接）',
    'lobby.opp.bot': '机器人',
    'lobby.opp.botbot': '机器人对机器人（观战）',
    'lobby.blackBot': '黑方机器人等级',
    'lobby.whiteBot': '白方机器人等级',
    'lobby.private': '私密（不在大厅列出）',
    'lobby.opening': '开局（可选）：点击落子，黑先',
    'lobby.openingClear': '清空',
    'lobby.openingUndo': '撤回',
    'lobby.openingNone': '没有开局棋子。',
    'lobby.create': '创建对局',
    'lobby.open': '等待中的对局',
    'lobby.openEmpty': '暂无等待中的对局，来创建一个吧！',
    'lobby.live': '正在进行',
    'lobby.liveEmpty': '暂无进行中的对局。',
    'lobby.more': '……还有 {n} 个',
    'lobby.bots': '在线机器人',
    'lobby.botsEmpty': '没有已连接的机器人。',
    'lobby.join': '加入',
    'lobby.watch': '观战',
    'lobby.watchGame': '观看这局{game}',
    'lobby.tv': '全屏观看最佳对局（TV）',
    'tv.title': 'Kibitz TV',
    'tv.watching': '正在播放最精彩的对局；结束后自动切换到下一局。',
    'tv.next': '对局结束。{s} 秒后播放下一局。',
    'tv.none': '目前没有进行中的对局：下一局开始后会在这里播放。',
    'tv.lobby': '大厅',
    'lobby.vs': '{a} 对 {b}',
    'lobby.emptySeat': '（空位）',
    'lobby.ply': '第 {n} 手',
    'lobby.spectators': '{n} 人观战',
    'lobby.botBusy': '{busy}/{capacity} 局',
    'lobby.botLevels': '等级 {levels}',

    'game.gomoku': '五子棋',
    'game.renju': '连珠',
    'game.othello': '黑白棋',
    'game.connect4': '四子棋',
    'rule.freestyle': '自由规则',
    'rule.standard': '标准规则',
    'rule.renju': '连珠规则',
    'label.gomoku': '五子棋 {size}×{size} · {rule}',
    'label.connect4': '四子棋 {cols}×{rows}',
    'label.connect4blocked': '四子棋 {cols}×{rows} · {n} 个障碍格',
    'clock.none': '不计时',
    'clock.move': '每步 {s} 秒',
    'clock.fischer': '{m}+{s}',

    'seat.black': '黑方',
    'seat.white': '白方',
    'player.bot': '机器人',
    'player.online': '在线',
    'player.offline': '离线',
    'player.empty': '等待玩家加入…',
    'player.you': '你',
    'player.discs': '{n} 子',

    'room.back': '← 大厅',
    'room.loading': '正在载入房间…',
    'room.spectators': '观众',
    'room.waiting': '等待对手 — 分享链接或邀请机器人。',
    'room.toMove': '轮到{seat}',
    'room.yourMove': '轮到你了',
    'room.yourFirstMove': '轮到你了——你的计时从你的第一步开始',
    'room.abortIn': '{side}须在 {s} 秒内落子，否则对局中止',
    'room.viewing': '正在查看第 {n} / {total} 手',
    'room.viewingLive': '对局仍在进行。',
    'room.viewingOver': '对局结束：{result}',
    'room.backToLive': '回到当前局面',
    'room.over': '对局结束',
    'room.moves': '棋谱',
    'room.opening': '开局',
    'lobby.openingRule': '开局规则',
    'lobby.openingRuleNone': '无：黑方直接先行',
    'openingRule.swap2': 'Swap2',
    'openingRule.soosorv8': '索索夫-8',
    'openingRule.taraguchi10': '山口-10',
    'opening.you': '轮到你选择',
    'opening.player': '{name}（{seat}）选择中',
    'opening.step.place': '{who}：{area}放 {count} 枚棋子，下一枚是{color}。颜色仍可能交换。',
    'opening.step.swap2': '{who}：保持{seat}、交换颜色，或再放两枚（白、黑）由对方选色。',
    'opening.step.swap': '{who}：保持{seat}（不换）或改执{other}（交换）。',
    'opening.step.color': '{who}：选择本局执哪种颜色；接着白方行棋。',
    'opening.step.declare': '{who}：宣布黑方须提供的第五手数量，1 到 {max}。',
    'opening.step.propose': '{who}：{proposeArea}提供 {n} 个第五手，不得对称：在棋盘上点选，然后点“提供”。',
    'opening.step.fifthEither': '{who}：{area}下第五手，或提供 {n} 个第五手由白方选择。',
    'opening.step.choose': '{who}：点击选择 {n} 个备选第五手之一；然后白方行棋。',
    'opening.area.board': '任意位置',
    'opening.area.centre': '天元',
    'opening.area.central': '中央 {side}×{side} 范围内',
    'opening.swap': '交换（执{seat}）',
    'opening.stay': '不换（{seat}）',
    'opening.take': '执{seat}',
    'opening.declare': '宣布',
    'opening.declareLabel': '第五手数量',
    'opening.offerInstead': '改为提供 {n} 个第五手',
    'opening.picked': '已选 {k} / {n}',
    'opening.offer': '提供',
    'room.noMoves': '还没有落子。',
    'room.first': '第一手',
    'room.prev': '上一手',
    'room.next': '下一手',
    'room.last': '最后一手',
    'room.moveInput': '输入着法',
    'room.moveInputPh': '例如 {ex}',
    'room.play': '落子',
    'room.undo': '悔棋',
    'room.draw': '提和',
    'room.resign': '认输',
    'room.resignConfirm': '确定认输？',
    'room.abort': '中止',
    'room.rematch': '再来一局',
    'room.rematchAsked': '已请求再来一局 — 等待对手。',
    'room.rematchOffered': '对手想再来一局。',
    'room.inviteBot': '邀请机器人',
    'room.botLevel': '机器人等级',
    'room.flip': '翻转棋盘',
    'room.copyLink': '复制链接',
    'room.linkCopied': '链接已复制。',
    'room.undoAsked': '已请求悔棋 — 等待对手。',
    'room.drawAsked': '已提和 — 等待对手。',
    'room.undoOffer': '{name}请求悔棋。',
    'room.drawOffer': '{name}提议和棋。',
    'room.touchHint': '轻点一个交叉点预览棋子，再点同一点落子。',
    'room.touchHintOk': '知道了',
    'room.forbiddenNote': '✕ 表示连珠规则下黑方的禁手点（长连、四四、三三）；悬停或轻点可查看原因。',
    'room.forbiddenAt': '{cell} — {why}',
    'room.accept': '同意',
    'room.decline': '拒绝',
    'room.export': '棋谱导出',
    'room.moveString': '着法串',
    'room.copyMoves': '复制着法',
    'room.copied': '已复制。',
    'room.export.json': 'JSON',
    'room.export.sgf': 'SGF',
    'room.export.psq': 'PSQ',
    'room.pass': '停一手',
    'room.score': '{black} – {white}',
    'room.rejoined': '已重新连接。',

    'over.win': '{name}（{seat}）胜',
    'over.rating': '等级分变化：{change}',
    'over.review': '复盘',
    'over.lobby': '返回大厅',
    'over.close': '关闭',
    'over.youWin': '你赢了！',
    'over.youLose': '你输了。',
    'over.draw': '和棋',
    'over.aborted': '对局已中止',
    'reason.five': '连成五子',
    'reason.four': '连成四子',
    'reason.count': '按子数',
    'reason.full': '棋盘已满',
    'reason.resign': '对方认输',
    'reason.timeout': '超时',
    'reason.agreement': '双方同意',
    'reason.abandoned': '对手已离开',
    'reason.aborted': '双方尚未都落子，不计结果',

    'forbidden.overline': '黑方禁手：长连',
    'forbidden.double-four': '黑方禁手：四四',
    'forbidden.double-three': '黑方禁手：三三',
    'board.aria': '棋盘',
    'board.openingAria': '开局棋盘',
    'board.column': '第 {n} 列',
    'board.blocked': '障碍格',

    'chat.title': '聊天',
    'chat.tab.game': '棋手',
    'chat.tab.spectators': '观众',
    'chat.placeholder': '说点什么…',
    'chat.input': '聊天消息',
    'chat.send': '发送',
    'chat.rematchOffer': '{name} 想再来一局。',

    'err.bad_json': '服务器无法读取消息。',
    'err.unknown_type': '服务器无法理解请求。',
    'err.bad_request': '请求有误。',
    'err.hello_required': '尚未登录。',
    'err.bad_token': '会话已过期，已重新登录。',
    'err.no_such_room': '房间不存在。',
    'err.room_full': '两个座位都已有人。',
    'err.not_a_player': '只有棋手可以这样做。',
    'err.not_your_turn': '还没轮到你。',
    'err.illegal_move': '不合法的着法。',
    'err.forbidden': '黑方禁手点（连珠规则）。',
    'err.game_over': '对局已经结束。',
    'err.no_bot_available': '暂时没有可用的机器人。',
    'err.bad_game': '对局设置无效。',
    'err.rate_limited': '操作太快了，请稍候。',
    'err.too_long': '消息太长了。',
  },
};

let lang = 'en';
const listeners = [];

function pickInitial() {
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (saved && STRINGS[saved]) return saved;
  } catch {
    // storage disabled
  }
  const nav = (globalThis.navigator && (navigator.languages?.[0] || navigator.language)) || 'en';
  return /^zh/i.test(nav) ? 'zh' : 'en';
}

export function initLang() {
  lang = pickInitial();
  if (globalThis.document) document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  return lang;
}

export const getLang = () => lang;

export function setLang(next) {
  if (!STRINGS[next] || next === lang) return;
  lang = next;
  try {
    localStorage.setItem(LANG_KEY, next);
  } catch {
    // storage disabled
  }
  if (globalThis.document) {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    applyI18n(document.body);
  }
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) {
  listeners.push(fn);
  return () => listeners.splice(listeners.indexOf(fn), 1);
}

/** The string for key in the current language, with {name} filled from params. */
export function t(key, params) {
  let text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, k) => (params[k] != null ? String(params[k]) : m));
  return text;
}

/** Re-translates static elements: data-i18n (text), data-i18n-aria, -placeholder, -title. */
export function applyI18n(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.setAttribute('placeholder', t(el.dataset.i18nPlaceholder));
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.setAttribute('title', t(el.dataset.i18nTitle));
}

/** "Gomoku 15×15 · renju", "Othello", "Connect Four 9×10 · 1 blocked". */
export function gameLabel(game) {
  if (!game) return '';
  if (game.kind === 'gomoku') {
    const rule = game.rule || 'freestyle';
    const label = t('label.gomoku', { size: game.size || 15, rule: t(`rule.${rule}`) });
    return game.opening_rule ? `${label} · ${t(`openingRule.${game.opening_rule}`)}` : label;
  }
  if (game.kind === 'othello') return t('game.othello');
  if (game.kind === 'connect4') {
    const n = (game.blocked || []).length;
    const p = { cols: game.cols || 7, rows: game.rows || 6, n };
    return n ? t('label.connect4blocked', p) : t('label.connect4', p);
  }
  return String(game.kind);
}

/** "3+2", "5 s per move", "untimed". */
export function clockLabel(clock) {
  if (!clock) return t('clock.none');
  if (clock.move_ms != null) return t('clock.move', { s: Math.round(clock.move_ms / 1000) });
  const [m, s] = clockKey(clock).split('+');
  return t('clock.fischer', { m, s });
}

/** A short message for a server `error`: the translated code, else the server's text. */
export function errorText(err) {
  const key = `err.${err.code}`;
  // The server's English text is more precise ("h8 is occupied"); other languages get the
  // translated code.
  if (lang === 'en' && err.message) return String(err.message).slice(0, 200);
  if (STRINGS.en[key]) return t(key);
  return String(err.message || err.code || 'error').slice(0, 200);
}
