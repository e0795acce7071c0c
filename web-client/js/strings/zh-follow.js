// The follows' strings in Simplified Chinese, by key (zh.js spreads them into its table; en-follow.js has the same keys).

export const FOLLOW_ZH = {
  'follow.follow': '关注',
  'follow.following': '已关注',
  'follow.unfollowTitle': '你已关注 {name}：再按一次取消关注',
  'follow.done': '你已关注 {name}。',
  'follow.undone': '你已取消关注 {name}。',
  'follow.h2h': '交手记录',
  'follow.you': '你',
  'follow.score': '{left} {wins} – {draws} – {losses} {right}',
  'follow.scoreNoteMine': '胜 – 和 – 负，以你为准。',
  'follow.scoreNote': '胜 – 和 – 负，以 {name} 为准。',
  'follow.h2hNone': '{left} 与 {right} 还没有对局。',
  'follow.h2hNoneMine': '你还没有和 {name} 下过棋。',
  'follow.h2hGames': '{left} 与 {right} 的对局',
  'follow.won': '{name} 胜',
  'follow.title': '关注',
  'follow.playingNow': '正在对局',
  'follow.nonePlaying': '他们现在都没有在下棋。',
  'follow.players': '你关注的棋手',
  'follow.more': '……还有 {n} 位',
  'follow.watchTitle': '观看这局棋',
};
