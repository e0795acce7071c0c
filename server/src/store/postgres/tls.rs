//! TLS to PostgreSQL, as libpq's URL options say: `sslmode` (`disable`, `prefer`, `require`,
//! `verify-ca`, `verify-full`) and `sslrootcert` (a CA file in PEM). The driver knows only the
//! first three modes and no CA file, so both are read here and taken out of the URL. Without
//! `sslmode` the link is plain TCP, as before TLS was offered (a local socket or a trusted
//! network). As in libpq, `require` with a CA file checks the chain as `verify-ca` does;
//! without one it encrypts and checks nothing. TLS is rustls with ring.

use std::path::Path;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::store::StoreError;

/// What a connection checks of the server's certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// Nothing (encrypted, not authenticated): `prefer`, or `require` without a CA file.
    Nothing,
    /// The chain up to a trusted CA: `verify-ca`, or `require` with a CA file.
    Chain,
    /// The chain and the host name: `verify-full`.
    ChainAndName,
}

/// The TLS a store URL asks for: none, or a connector (with the driver's mode).
#[derive(Clone)]
pub(super) enum Tls {
    Off,
    On(SslMode, MakeRustlsConnect),
}

/// Splits a store URL into the URL the driver reads (without `sslmode` values it does not
/// know, nor `sslrootcert`) and the TLS to connect with.
pub(super) fn from_url(url: &str) -> Result<(String, Tls), StoreError> {
    let (base, options) = match url.split_once('?') {
        Some((base, options)) => (base, options),
        None => return Ok((url.to_string(), Tls::Off)),
    };
    let mut kept = Vec::new();
    let (mut mode, mut ca) = (None, None);
    for pair in options.split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("sslmode", value)) => mode = Some(value.to_string()),
            Some(("sslrootcert", value)) => ca = Some(percent_decoded(value)?),
            _ => kept.push(pair),
        }
    }
    let (driver_mode, check) = match (mode.as_deref(), &ca) {
        (None | Some("disable"), None) => return Ok((rebuild(base, &kept), Tls::Off)),
        (None | Some("disable"), Some(_)) => {
            return Err(StoreError::Url(
                "sslrootcert names a CA file, but sslmode does not ask for TLS \
                 (require, verify-ca or verify-full)"
                    .to_string(),
            ))
        }
        (Some("prefer"), _) => (SslMode::Prefer, Check::Nothing),
        (Some("require"), None) => (SslMode::Require, Check::Nothing),
        (Some("require" | "verify-ca"), Some(_)) | (Some("verify-ca"), None) => {
            (SslMode::Require, Check::Chain)
        }
        (Some("verify-full"), _) => (SslMode::Require, Check::ChainAndName),
        (Some(other), _) => {
            return Err(StoreError::Url(format!(
                "sslmode {other:?}: expected disable, prefer, require, verify-ca or verify-full"
            )))
        }
    };
    let connector = connector(check, ca.as_deref().map(Path::new))?;
    Ok((rebuild(base, &kept), Tls::On(driver_mode, connector)))
}

fn rebuild(base: &str, kept: &[&str]) -> String {
    if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    }
}

/// A URL option's value with its `%XX` escapes decoded (a path may hold any character).
fn percent_decoded(value: &str) -> Result<String, StoreError> {
    let bad = || StoreError::Url(format!("sslrootcert {value:?} is not a valid URL value"));
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = value.get(i + 1..i + 3).ok_or_else(bad)?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// The CA certificates of `ca`, else the system's.
fn roots(ca: Option<&Path>) -> Result<RootCertStore, StoreError> {
    let mut roots = RootCertStore::empty();
    match ca {
        Some(path) => {
            let unreadable =
                |e: String| StoreError::Url(format!("sslrootcert {}: {e}", path.display()));
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| unreadable(e.to_string()))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| unreadable(e.to_string()))?;
            let (added, _) = roots.add_parsable_certificates(certs);
            if added == 0 {
                return Err(unreadable("holds no certificate".to_string()));
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            roots.add_parsable_certificates(found.certs);
        }
    }
    Ok(roots)
}

/// rustls's ring provider. rustls 0.23.48 marks it deprecated because ring has no
/// post-quantum key exchange; aws-lc-rs has one, but needs cmake and a long C build, and ring
/// is what the rest of the tree (redis-rs's TLS) already uses. Worth moving together.
#[allow(deprecated)]
fn ring_provider() -> CryptoProvider {
    rustls::crypto::ring::default_provider()
}

fn connector(check: Check, ca: Option<&Path>) -> Result<MakeRustlsConnect, StoreError> {
    let provider = Arc::new(ring_provider());
    let inner = match check {
        Check::Nothing => None,
        Check::Chain | Check::ChainAndName => Some(
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots(ca)?), provider.clone())
                .build()
                .map_err(|e| StoreError::Url(format!("sslrootcert: {e}")))?,
        ),
    };
    let verifier = Arc::new(Verifier {
        check,
        inner,
        provider: provider.clone(),
    });
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| StoreError::Url(format!("TLS: {e}")))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// Checks the server's certificate as far as the mode asks; the handshake's signatures are
/// checked always (the key exchange is the certificate's, whatever else is checked).
#[derive(Debug)]
struct Verifier {
    check: Check,
    inner: Option<Arc<WebPkiServerVerifier>>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(inner) = &self.inner else {
            return Ok(ServerCertVerified::assertion());
        };
        match inner.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if self.check == Check::Chain => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(url: &str) -> Result<(String, Option<SslMode>), String> {
        from_url(url)
            .map(|(url, tls)| {
                let mode = match tls {
                    Tls::Off => None,
                    Tls::On(mode, _) => Some(mode),
                };
                (url, mode)
            })
            .map_err(|e| e.to_string())
    }

    #[test]
    fn sslmode_and_sslrootcert_are_read_and_taken_out_of_the_url() {
        let plain = mode("postgres://db/kibitz?application_name=x").unwrap();
        assert_eq!(
            plain,
            ("postgres://db/kibitz?application_name=x".to_string(), None)
        );
        let (url, m) = mode("postgres://db/kibitz?sslmode=require&connect_timeout=3").unwrap();
        assert_eq!(
            (url.as_str(), m),
            (
                "postgres://db/kibitz?connect_timeout=3",
                Some(SslMode::Require)
            )
        );
        let (url, m) = mode("postgres://db/kibitz?sslmode=verify-full").unwrap();
        assert_eq!(
            (url.as_str(), m),
            ("postgres://db/kibitz", Some(SslMode::Require))
        );
        let e =
            mode("postgres://db/k?sslmode=verify-full&sslrootcert=/nowhere/ca.pem").unwrap_err();
        assert!(e.contains("sslrootcert /nowhere/ca.pem"), "{e}");
        let e = mode("postgres://db/k?sslmode=sometimes").unwrap_err();
        assert!(e.contains("expected disable, prefer"), "{e}");
        let e = mode("postgres://db/k?sslrootcert=/etc/ca.pem").unwrap_err();
        assert!(e.contains("does not ask for TLS"), "{e}");
        assert_eq!(percent_decoded("/a%20b/c.pem").unwrap(), "/a b/c.pem");
        assert!(percent_decoded("/a%2").is_err());
    }
}
