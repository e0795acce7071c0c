//! Rooms: one task per room, the room's only writer. The rules of play are plain data
//! ([`game::RoomGame`]) that propose changes; the task ([`actor`]) stores each change, then
//! commits it and tells the members — nothing is announced that is not stored.
//!
//! - [`plan`]: a room about to be made, checked once.
//! - [`game`]: the rules of play: moves, clocks, turns, offers, endings (`game/tests/`).
//! - [`change`]: what a request changes, in two steps (store, then commit).
//! - [`error`]: why a room refuses a request.
//! - [`answers`]: answers kept for resent move ids.
//! - [`members`]: who is in the room and who is away; one serialisation per broadcast.
//! - [`chat`]: the chat rules.
//! - [`invites`]: bot invitations.
//! - [`registry`]: rooms made, reloaded and started, one task each.
//! - [`actor`]: the task: queue, timers, store, broadcast, seats and presence.
//! - [`handover`]: a room whose lease may be lost stops and hands its queue on.
//! - [`requests`]: a player's requests as the task carries them out.
//! - [`relay`]: where a request goes: this node's room, or in a cluster the owner's, or a
//!   room claimed and reloaded here.
//! - [`handle`]: a room as others see it: its queue and the commands on it.
//! - [`member`]: how a room reaches a member's connection (`MemberLink`).
//! - [`parked`]: members of finished rooms that left memory, for the room's reload.
//! - [`node_tasks`]: in a cluster, what the bus brings, the watch of the other nodes, and
//!   the claim of rooms no node owns.

pub mod actor;
pub mod answers;
pub mod change;
pub mod chat;
pub mod error;
pub mod game;
pub mod handle;
mod handover;
pub mod invites;
pub mod member;
pub mod members;
pub mod node_tasks;
pub mod open_rooms;
pub mod parked;
pub mod plan;
pub mod registry;
pub mod relay;
pub mod requests;
mod timers;
