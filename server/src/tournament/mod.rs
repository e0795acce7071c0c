//! Tournaments between accounts, people and bots alike: round-robin (everyone meets everyone)
//! and Swiss (equal scores meet, for a fixed number of rounds), each in one game and clock,
//! rated or not, played in ordinary rooms that the lobby and the TV show like any other.
//! docs/protocol.md, "Tournaments", is the contract.
//!
//! - [`pairing`]: the pure tournament logic: Berger tables, Swiss pairings, standings with
//!   Buchholz and Sonneborn-Berger.
//! - [`document`]: the tournament as stored, one JSON document, and the steps that change it.
//! - [`scoring`]: what a finished room scores, aborted games included.
//! - [`view`]: the tournament as the API shows it, with its standings.
//! - [`director`]: the task that plays a running tournament through its rounds, and resumes
//!   the running ones when the server starts.
//! - [`registry`]: the tournaments directed here, and the lock of edits.
//! - [`elsewhere`]: in a cluster, the games of tournaments another node directs.

pub mod director;
pub mod document;
pub mod elsewhere;
pub mod pairing;
pub mod registry;
pub mod scoring;
pub mod view;
