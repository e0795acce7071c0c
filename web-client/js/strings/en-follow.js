// The follows' strings in English, by key (en.js spreads them into its table; zh-follow.js has the same keys): the player page's "Follow" button and head-to-head section, the lobby's "Following" card.

export const FOLLOW_EN = {
  'follow.follow': 'Follow',
  'follow.following': 'Following',
  'follow.unfollowTitle': 'You follow {name}: press again to unfollow',
  'follow.done': 'You follow {name} now.',
  'follow.undone': 'You no longer follow {name}.',
  'follow.h2h': 'Head to head',
  'follow.you': 'You',
  'follow.score': '{left} {wins} – {draws} – {losses} {right}',
  'follow.scoreNoteMine': 'Wins – draws – losses, from your side.',
  'follow.scoreNote': 'Wins – draws – losses, from {name}\'s side.',
  'follow.h2hNone': 'No games between {left} and {right} yet.',
  'follow.h2hNoneMine': 'You have not played {name} yet.',
  'follow.h2hGames': 'Games between {left} and {right}',
  'follow.won': '{name} won',
  'follow.title': 'Following',
  'follow.playingNow': 'Playing now',
  'follow.nonePlaying': 'None of them is playing now.',
  'follow.players': 'Players you follow',
  'follow.more': '… and {n} more',
  'follow.watchTitle': 'Watch this game',
};
