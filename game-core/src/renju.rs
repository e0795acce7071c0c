//! Renju forbidden points for black (overline, double four, double three under the RIF
//! definition, checked recursively).

pub use crate::error::Forbidden;
