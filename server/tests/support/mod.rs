//! Helpers shared by the server's integration tests (and, by path, by the end-to-end tests of
//! the root crate).

pub mod postgres;
pub mod test_ca;
