//! Tests of the exact solver.
use super::*;
