//! The wire protocol v1: `ClientMsg` (client to server) and `ServerMsg` (server to client).
