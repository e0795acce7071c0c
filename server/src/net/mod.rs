//! What serves the port: the accept loop ([`listener`]), open connections per client address
//! ([`gate`]), a connection's bounded outgoing queue ([`connection`]), and the HTTP routes
//! with the embedded web client ([`http`]).

pub mod client_addr;
pub mod connection;
pub mod gate;
pub mod http;
pub mod listener;
