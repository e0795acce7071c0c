// The blocks' strings in Simplified Chinese, by key (zh.js spreads them into its table; en-blocks.js has the same keys).

export const BLOCKS_ZH = {
  'blocks.block': '屏蔽',
  'blocks.unblock': '取消屏蔽',
  'blocks.blockAria': '屏蔽 {name}',
  'blocks.unblockAria': '取消屏蔽 {name}',
  'blocks.confirmTitle': '屏蔽 {name}？',
  'blocks.confirmBody': '你将看不到 {name} 的聊天，对方的挑战不会送达你，快速配对也不会让你们相遇。对方不会收到通知。',
  'blocks.confirmBodyBot': '你将看不到 {name} 的聊天。对方不会收到通知。',
  'blocks.confirm': '屏蔽',
  'blocks.cancel': '取消',
  'blocks.done': '你已屏蔽 {name}。',
  'blocks.undone': '你已取消屏蔽 {name}。',
  'blocks.title': '已屏蔽的玩家',
  'blocks.intro': '你看不到他们的聊天，他们的挑战不会送达你，你们也不会被配对。',
  'blocks.none': '你还没有屏蔽任何人。',
  'blocks.guest': '一位游客',
};
