// The blocks' strings in English, by key (en.js spreads them into its table; zh-blocks.js has the same keys).

export const BLOCKS_EN = {
  'blocks.block': 'Block',
  'blocks.unblock': 'Unblock',
  'blocks.blockAria': 'Block {name}',
  'blocks.unblockAria': 'Unblock {name}',
  'blocks.confirmTitle': 'Block {name}?',
  'blocks.confirmBody': '{name}\'s chat will be hidden from you, their challenges won\'t reach you, and you won\'t be paired with them. They are not told.',
  'blocks.confirmBodyBot': '{name}\'s chat will be hidden from you. They are not told.',
  'blocks.confirm': 'Block',
  'blocks.cancel': 'Cancel',
  'blocks.done': 'You blocked {name}.',
  'blocks.undone': 'You unblocked {name}.',
  'blocks.title': 'Blocked players',
  'blocks.intro': 'Their chat is hidden from you, their challenges don\'t reach you, and you are never paired with them.',
  'blocks.none': 'You have not blocked anyone.',
  'blocks.guest': 'A guest',
};
