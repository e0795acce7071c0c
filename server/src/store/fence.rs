//! The fencing rules every backend applies, checked inside the write's own transaction: a
//! room's stored fence is the token of its owner; a claim may raise it, never lower it, and a
//! change made under a fence is written only while that fence is the room's. Fence 0 is
//! single-server mode: never checked.

use super::error::StoreError;

/// A change of `room` made under `fence`, its room stored under `stored`: refused unless the
/// two are the same (or the change is unfenced).
pub(super) fn check_change(room: &str, stored: u64, fence: u64) -> Result<(), StoreError> {
    if fence == 0 || stored == fence {
        Ok(())
    } else {
        Err(fenced(room, stored, fence))
    }
}

/// A claim of `room` under `fence`, its room stored under `stored`: refused if a newer owner
/// has claimed it (the same fence again is the same owner, and allowed).
pub(super) fn check_claim(room: &str, stored: u64, fence: u64) -> Result<(), StoreError> {
    if stored <= fence {
        Ok(())
    } else {
        Err(fenced(room, stored, fence))
    }
}

fn fenced(room: &str, stored: u64, fence: u64) -> StoreError {
    StoreError::Fenced {
        room: room.to_string(),
        stored,
        fence,
    }
}

/// A fence as its column holds it (a signed 64-bit integer in every backend); one beyond
/// that range, which no lease hands out, is refused rather than wrapped.
pub(super) fn to_column(fence: u64) -> Result<i64, StoreError> {
    i64::try_from(fence)
        .map_err(|_| StoreError::Write(format!("fencing token {fence} is out of range")))
}

/// A fence from its column.
pub(super) fn from_column(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unfenced_change_is_never_refused_and_a_fenced_one_only_under_its_rooms_fence() {
        assert!(check_change("r", 7, 0).is_ok());
        assert!(check_change("r", 7, 7).is_ok());
        assert!(matches!(
            check_change("r", 7, 6),
            Err(StoreError::Fenced {
                stored: 7,
                fence: 6,
                ..
            })
        ));
        assert!(check_change("r", 7, 8).is_err(), "a fence not yet claimed");
    }

    #[test]
    fn a_claim_may_raise_or_repeat_the_fence_but_not_lower_it() {
        assert!(check_claim("r", 0, 1).is_ok());
        assert!(check_claim("r", 3, 3).is_ok());
        assert!(check_claim("r", 3, 2).is_err());
    }

    #[test]
    fn a_fence_beyond_the_columns_range_is_refused() {
        assert_eq!(to_column(5).unwrap(), 5);
        assert!(to_column(u64::MAX).is_err());
        assert_eq!(from_column(i64::MAX), i64::MAX as u64);
    }
}
