//! Tests of the engine.
use super::*;
