//! The budget check of a search: it reads the clock, the node budget and the stop flag every
//! so many nodes (reading the clock costs more than a node), and stays stopped once over.

use std::time::Instant;

use crate::engine::StopFlag;

/// Whether a search may go on; armed again for each search.
#[derive(Debug)]
pub struct Watchdog {
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    stop: StopFlag,
    /// Nodes between two readings.
    every: u64,
    /// Node count at which the clock and the stop flag are read next. A counter rather than
    /// `nodes % every`, because probes add many nodes at once and could step over a multiple.
    next_check: u64,
    stopped: bool,
}

impl Watchdog {
    /// A watchdog that reads its limits every `every` nodes; it has none until armed.
    #[must_use]
    pub fn new(every: u64) -> Watchdog {
        Watchdog {
            deadline: None,
            max_nodes: None,
            stop: StopFlag::new(),
            every,
            next_check: 0,
            stopped: false,
        }
    }

    /// Starts watching a new search, which counts its nodes from zero.
    pub fn arm(&mut self, deadline: Option<Instant>, max_nodes: Option<u64>, stop: &StopFlag) {
        self.deadline = deadline;
        self.max_nodes = max_nodes;
        self.stop = stop.clone();
        self.next_check = 0;
        self.stopped = false;
    }

    /// Starts watching again with the same limits: the next reading is at once. For a search
    /// whose node count goes on from the last one.
    pub fn restart(&mut self) {
        self.next_check = 0;
        self.stopped = false;
    }

    /// Whether the search has been stopped (without reading anything).
    #[inline]
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether the search, at `nodes` nodes, must stop: past the deadline, past the node
    /// budget, or told to.
    #[inline]
    pub fn over(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if nodes >= self.next_check {
            self.next_check = nodes + self.every;
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let spent = self.max_nodes.is_some_and(|n| nodes >= n);
            if late || spent || self.stop.is_stopped() {
                self.stopped = true;
            }
        }
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn it_stops_on_the_node_budget_at_its_next_reading() {
        let mut w = Watchdog::new(100);
        w.arm(None, Some(250), &StopFlag::new());
        assert!(!w.over(0));
        assert!(!w.over(150), "read at 100 nodes: under the budget");
        assert!(!w.over(199), "not read again before 200");
        assert!(!w.over(200));
        assert!(w.over(300), "read at 300 nodes: over the budget");
        assert!(w.stopped() && w.over(0), "and it stays stopped");
        w.arm(None, None, &StopFlag::new());
        assert!(!w.over(10_000), "armed again, with no limit");
    }

    #[test]
    fn it_stops_past_the_deadline_or_when_told() {
        let mut w = Watchdog::new(1);
        w.arm(
            Some(Instant::now() - Duration::from_millis(1)),
            None,
            &StopFlag::new(),
        );
        assert!(w.over(1));
        let stop = StopFlag::new();
        w.arm(None, None, &stop);
        assert!(!w.over(1));
        stop.stop();
        assert!(w.over(2));
    }
}
