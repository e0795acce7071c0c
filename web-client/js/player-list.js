// A list of players as this page knows it while it changes (the blocked, the followed): unknown until the server's list is read, then changed here as the account adds and removes players (the server answered each), kept in the order `order` gives (node-tested through blocks-data.js and follows-data.js).

export class PlayerList {
  /** `order(rows)`: the rows as the server's list would give them (each player once, in name
   *  order). */
  constructor(order) {
    this.order = order;
    this.rows = null;
  }

  /** Forgets the list (another account, or none): unknown again. */
  reset() {
    this.rows = null;
  }

  /** The server's list, already read. */
  set(rows) {
    this.rows = [...rows];
  }

  known() {
    return this.rows !== null;
  }

  has(player) {
    return !!this.rows?.some((r) => r.player === player);
  }

  /** The players in name order (empty while unknown). */
  all() {
    return this.rows ? [...this.rows] : [];
  }

  /** The ids in the list, as a set. */
  ids() {
    return new Set(this.all().map((r) => r.player));
  }

  /** `player` (named `name`, null for a guest) is in the list now. */
  add(player, name = null) {
    if (!this.rows) this.rows = [];
    if (this.has(player)) return;
    this.rows = this.order([...this.rows, { player, name }]);
  }

  /** `player` is no longer in the list. */
  remove(player) {
    if (this.rows) this.rows = this.rows.filter((r) => r.player !== player);
  }
}
