// The user's intents in a room: the view names what the player asked for (a move, an offer, a step through the moves, a copy of the link…) and the controls say what each one does, so that neither holds, or fills in, an object of the other's.

/**
 * A new channel of intents. Returns { on(name, handler), emit(name, ...args) }: `emit` calls
 * the handler of `name` and gives back what it returns (a move typed or a chat line says
 * whether it went out); nothing happens for an intent without a handler. One handler an intent.
 */
export function createIntents() {
  const handlers = new Map();
  return {
    on(name, handler) {
      if (handlers.has(name)) throw new Error(`room intent ${name} has a handler already`);
      handlers.set(name, handler);
    },
    emit: (name, ...args) => handlers.get(name)?.(...args),
  };
}
