//! Whose request it is: the socket's peer, unless that peer is a trusted reverse proxy
//! (`--trusted-proxies`), in which case the client its `Forwarded` (RFC 7239) or
//! `X-Forwarded-For` header names — the nearest address in the chain that is not itself a
//! trusted proxy. A header from anyone else is never read: a client could name any address.

use std::net::IpAddr;

use axum::http::{header, HeaderMap};
use ipnet::IpNet;

/// Whether `addr` is one of the `trusted` proxies.
#[must_use]
pub fn is_trusted(trusted: &[IpNet], addr: IpAddr) -> bool {
    let addr = canonical(addr);
    trusted.iter().any(|net| net.contains(&addr))
}

/// The client's address for a request from `peer` with `headers`. A chain the proxies wrote
/// that cannot be read (an `unknown` or obfuscated hop) counts as the proxy's own request, so
/// that the limits fall on the proxy rather than on nobody.
#[must_use]
pub fn client_ip(trusted: &[IpNet], peer: IpAddr, headers: &HeaderMap) -> IpAddr {
    let peer = canonical(peer);
    if !is_trusted(trusted, peer) {
        return peer;
    }
    let chain = forwarded_chain(headers);
    let mut client = peer;
    // From the nearest hop outwards: past every trusted proxy, the first other address.
    for hop in chain.iter().rev() {
        let Some(addr) = hop else {
            return peer;
        };
        client = canonical(*addr);
        if !is_trusted(trusted, client) {
            return client;
        }
    }
    client
}

/// The addresses the proxies listed, farthest first: `Forwarded`'s `for=` when it is there,
/// else `X-Forwarded-For`. `None` stands for a hop that names no address.
fn forwarded_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let values = |name| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .collect::<Vec<_>>()
    };
    let forwarded = values(header::FORWARDED);
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .map(|element| {
                element
                    .split(';')
                    .find_map(|pair| {
                        let (key, value) = pair.trim().split_once('=')?;
                        key.eq_ignore_ascii_case("for").then_some(value)
                    })
                    .and_then(node_addr)
            })
            .collect();
    }
    values(header::HeaderName::from_static("x-forwarded-for"))
        .into_iter()
        .map(node_addr)
        .collect()
}

/// The address of a node as a header writes it: `203.0.113.7`, `"203.0.113.7:4711"`,
/// `"[2001:db8::1]:4711"`, `2001:db8::1`.
fn node_addr(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Ok(addr) = text.parse::<IpAddr>() {
        return Some(addr);
    }
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    let (host, port) = text.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse().ok()
}

/// An IPv4 address as itself, also when a dual-stack socket gives it as `::ffff:a.b.c.d`.
fn canonical(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(addr, IpAddr::V4),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, HeaderValue::from_str(value).unwrap());
        }
        h
    }

    #[test]
    fn a_header_counts_only_from_a_trusted_proxy() {
        let trusted: Vec<IpNet> = vec![
            "10.0.0.0/8".parse().unwrap(),
            "127.0.0.1/32".parse().unwrap(),
        ];
        let xff = headers(&[("x-forwarded-for", "203.0.113.7")]);
        assert_eq!(
            client_ip(&trusted, ip("127.0.0.1"), &xff),
            ip("203.0.113.7")
        );
        assert_eq!(
            client_ip(&trusted, ip("198.51.100.2"), &xff),
            ip("198.51.100.2"),
            "not a proxy of ours"
        );
        assert_eq!(
            client_ip(&[], ip("127.0.0.1"), &xff),
            ip("127.0.0.1"),
            "no proxy trusted"
        );
        assert_eq!(
            client_ip(&trusted, ip("::ffff:127.0.0.1"), &xff),
            ip("203.0.113.7")
        );
        assert_eq!(
            client_ip(&trusted, ip("127.0.0.1"), &HeaderMap::new()),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn the_nearest_address_past_the_trusted_proxies_is_the_client() {
        let trusted: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap()];
        // The client may write its own X-Forwarded-For: only the hops our proxies added count.
        let chain = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.7, 10.0.0.3")]);
        assert_eq!(
            client_ip(&trusted, ip("10.0.0.2"), &chain),
            ip("203.0.113.7")
        );
        let forwarded = headers(&[
            (
                "forwarded",
                r#"for="[2001:db8::1]:4711";proto=https, for=10.0.0.3"#,
            ),
            ("x-forwarded-for", "9.9.9.9"),
        ]);
        assert_eq!(
            client_ip(&trusted, ip("10.0.0.2"), &forwarded),
            ip("2001:db8::1"),
            "Forwarded first"
        );
        let port = headers(&[("forwarded", r#"for="198.51.100.9:5000""#)]);
        assert_eq!(
            client_ip(&trusted, ip("10.0.0.2"), &port),
            ip("198.51.100.9")
        );
        let unknown = headers(&[("forwarded", "for=unknown")]);
        assert_eq!(
            client_ip(&trusted, ip("10.0.0.2"), &unknown),
            ip("10.0.0.2"),
            "the proxy's own"
        );
        let all_ours = headers(&[("x-forwarded-for", "10.0.0.9")]);
        assert_eq!(
            client_ip(&trusted, ip("10.0.0.2"), &all_ours),
            ip("10.0.0.9")
        );
    }
}
