//! The generator's own open-file limit: every connection is a file, and the default soft
//! limit (often 1,024) is far below the thousands of connections a run holds.

use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};

/// Raises the soft open-file limit to the hard one; returns the limit now in force (`None`
/// when unlimited).
#[must_use]
pub fn raise_to_hard_limit() -> Option<u64> {
    let limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        let raised = Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            return limit.maximum;
        }
    }
    limit.current
}
