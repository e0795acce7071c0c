// A bare WebSocket JSON relay that speaks just enough of the Kibitz protocol for
// `kibitz loadtest`: hello, create, join (player or spectator), move, resign, leave. It keeps
// rooms in memory, checks nothing but five in a row from the last stone (so that games end as
// they do on the real server), stores nothing and keeps no clocks. It is the floor that
// Kibitz's move path is measured against in docs/benchmarks.md: the cost of the sockets and
// JSON alone, in the `ws` library most Node game servers are built on.
//
//   npm ci --prefix scripts/relay && node scripts/relay/relay.mjs 127.0.0.1:9700

import { WebSocketServer } from 'ws';

const [host, port] = (process.argv[2] ?? '127.0.0.1:9700').split(':');
const rooms = new Map();
let nextId = 0;

const id = (prefix) => `${prefix}${(nextId++).toString(36)}`;

function send(ws, msg) {
  ws.send(JSON.stringify(msg));
}

function broadcast(room, msg) {
  const text = JSON.stringify(msg);
  for (const member of room.members.keys()) member.send(text);
}

function seatView(seat) {
  return seat && { player: seat.player, name: seat.name, bot: false, online: true };
}

function state(room, you) {
  return {
    t: 'state', room: room.id, seq: room.seq, game: room.game, opening: [],
    moves: room.moves, to_move: room.moves.length % 2 ? 'white' : 'black',
    status: room.status, result: null,
    seats: { black: seatView(room.seats.black), white: seatView(room.seats.white) },
    clock: null, spectators: 0, you,
  };
}

// Five or more in a row through the last stone.
function five(room, col, row, color) {
  const at = (c, r) => room.stones.get(`${c},${r}`);
  for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    let run = 1;
    for (const sign of [1, -1]) {
      let c = col + sign * dc, r = row + sign * dr;
      while (at(c, r) === color) { run++; c += sign * dc; r += sign * dr; }
    }
    if (run >= 5) return true;
  }
  return false;
}

function handle(ws, me, msg) {
  switch (msg.t) {
    case 'hello':
      me.player = id('p');
      me.name = msg.name;
      send(ws, { t: 'welcome', player: me.player, name: me.name, token: id('t'), protocol: 1 });
      return;
    case 'create': {
      const room = {
        id: id('r'), game: msg.game, seq: 0, moves: [], stones: new Map(), status: 'waiting',
        seats: { black: { player: me.player, name: me.name, ws }, white: null }, members: new Map(),
      };
      room.members.set(ws, 'black');
      rooms.set(room.id, room);
      send(ws, { t: 'created', room: room.id });
      send(ws, state(room, 'black'));
      return;
    }
    case 'join': {
      const room = rooms.get(msg.room);
      if (!room) return send(ws, { t: 'error', code: 'no_such_room', message: 'no such room', ref: 'join' });
      if (msg.as === 'player' && !room.seats.white) {
        room.seats.white = { player: me.player, name: me.name, ws };
        room.members.set(ws, 'white');
        room.status = 'playing';
        for (const [member, seat] of room.members) send(member, state(room, seat));
      } else {
        room.members.set(ws, null);
        send(ws, state(room, null));
      }
      return;
    }
    case 'move': {
      const room = rooms.get(msg.room);
      if (!room || room.status !== 'playing') return;
      const by = room.moves.length % 2 ? 'white' : 'black';
      const col = msg.move.charCodeAt(0) - 97, row = Number(msg.move.slice(1)) - 1;
      room.stones.set(`${col},${row}`, by);
      room.moves.push(msg.move);
      broadcast(room, {
        t: 'moved', room: room.id, seq: ++room.seq, ply: room.moves.length, move: msg.move, by,
        to_move: by === 'black' ? 'white' : 'black', clock: null,
      });
      if (five(room, col, row, by)) {
        room.status = 'over';
        broadcast(room, { t: 'over', room: room.id, seq: ++room.seq, result: by, reason: 'five' });
      }
      return;
    }
    case 'resign': {
      const room = rooms.get(msg.room);
      if (!room || room.status !== 'playing') return;
      const seat = room.members.get(ws);
      room.status = 'over';
      broadcast(room, {
        t: 'over', room: room.id, seq: ++room.seq, result: seat === 'black' ? 'white' : 'black', reason: 'resign',
      });
      return;
    }
    case 'leave': {
      const room = rooms.get(msg.room);
      if (!room) return;
      room.members.delete(ws);
      if (room.members.size === 0) rooms.delete(room.id);
      return;
    }
    default:
  }
}

const server = new WebSocketServer({ host, port: Number(port), path: '/ws' });
server.on('connection', (ws) => {
  const me = {};
  ws.on('message', (data) => {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return send(ws, { t: 'error', code: 'bad_request', message: 'not JSON', ref: null });
    }
    handle(ws, me, msg);
  });
  ws.on('close', () => {
    for (const room of rooms.values()) {
      if (room.members.delete(ws) && room.members.size === 0) rooms.delete(room.id);
    }
  });
});
server.on('listening', () => console.log(`relay listening on ws://${host}:${port}/ws`));
