//! The end-to-end tests, in one binary: real servers (in this process, or `kibitz` processes),
//! real sockets, a real SQLite file, real PostgreSQL and Redis servers, real bot processes.
//! One binary links the whole server once (each file here was a binary of its own, each
//! linking it again: docs/benchmarks.md, "Build and CI"). A file is a module; [`support`]
//! holds what they share. `cargo test --test e2e server_rooms::` runs one file's tests.

mod support;

mod bot_external;
mod bot_games;
mod bot_restarts;
mod bot_tools;
mod cluster_script;
mod fuzz_messages;
mod fuzz_parsers;
mod loadtest;
mod match_scripts;
mod server_accounts;
mod server_bad_input;
mod server_bots;
mod server_cluster;
mod server_cluster_crash;
mod server_cluster_faults;
mod server_correspondence;
mod server_crash;
mod server_finished_rooms;
mod server_floods;
mod server_full_disk;
mod server_games;
mod server_http;
mod server_hygiene;
mod server_limits;
mod server_moderation;
mod server_openings;
mod server_postgres;
mod server_reviews;
mod server_rooms;
mod server_slow_clients;
mod server_sockets;
mod server_store_failures;
mod server_time;
mod server_tournaments;
mod server_watching;
mod soak;
mod wire_client;
