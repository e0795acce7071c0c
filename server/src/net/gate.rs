//! Open WebSocket connections per client address, bounded at the upgrade: one address cannot
//! take every socket the server has. A connection holds an [`Admission`] for as long as it
//! lives; dropping it gives the place back.

use std::net::IpAddr;
use std::sync::Arc;

use dashmap::DashMap;

/// Counts open connections by address. A DashMap: one short update per connection opened or
/// closed, never held across `.await`.
#[derive(Debug)]
pub struct ConnectionGate {
    open: Arc<DashMap<IpAddr, usize>>,
    max: usize,
}

/// One admitted connection; its place is given back when it is dropped.
#[derive(Debug)]
pub struct Admission {
    open: Arc<DashMap<IpAddr, usize>>,
    address: IpAddr,
}

impl ConnectionGate {
    #[must_use]
    pub fn new(max: usize) -> ConnectionGate {
        ConnectionGate {
            open: Arc::default(),
            max,
        }
    }

    /// Admits one more connection from `address`, or `None` when it already has the most.
    #[must_use]
    pub fn admit(&self, address: IpAddr) -> Option<Admission> {
        let mut count = self.open.entry(address).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        drop(count);
        Some(Admission {
            open: Arc::clone(&self.open),
            address,
        })
    }

    /// The most connections one address may hold.
    #[must_use]
    pub fn max(&self) -> usize {
        self.max
    }

    /// Connections open from `address`.
    #[must_use]
    pub fn open_from(&self, address: IpAddr) -> usize {
        self.open.get(&address).map_or(0, |c| *c)
    }
}

impl Admission {
    /// The address of the admitted connection.
    #[must_use]
    pub fn address(&self) -> IpAddr {
        self.address
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        // Forget an address with no connection left, so the map does not grow with every
        // client ever seen.
        self.open.remove_if_mut(&self.address, |_, count| {
            *count = count.saturating_sub(1);
            *count == 0
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admits_up_to_the_limit_per_address_and_gives_places_back() {
        let gate = ConnectionGate::new(2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = gate.admit(a).expect("first");
        let second = gate.admit(a).expect("second");
        assert!(gate.admit(a).is_none());
        assert!(gate.admit(b).is_some(), "another address has its own count");
        drop(first);
        assert_eq!(gate.open_from(a), 1);
        let third = gate.admit(a).expect("a place was given back");
        drop(second);
        drop(third);
        assert_eq!(gate.open_from(a), 0);
    }
}
