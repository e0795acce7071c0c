//! A certificate authority of a test's own, made with `openssl` (Debian's, which the
//! PostgreSQL package depends on): a CA certificate, and a server certificate it signs for the
//! loopback address 127.0.0.1 only (so that a client asking for a host name finds it does not
//! match). Keys are P-256: quick to make.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What a test CA made: the CA's certificate (what clients trust) and the server's pair.
#[derive(Clone, Debug)]
pub struct CaFiles {
    pub ca: PathBuf,
    pub cert: PathBuf,
    pub key: PathBuf,
}

const CA_CONFIG: &str = "[req]
distinguished_name = dn
x509_extensions = ca
prompt = no
[dn]
CN = Kibitz test CA
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
";

const SERVER_EXTENSIONS: &str = "basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1
authorityKeyIdentifier = keyid
";

fn openssl(dir: &Path, args: &[&str]) {
    let output = Command::new("openssl")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run openssl ({e}): install Debian's `openssl`"));
    assert!(
        output.status.success(),
        "openssl {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Makes a CA named `name` and a server certificate for 127.0.0.1 in `dir` (which exists).
pub fn make(dir: &Path, name: &str) -> CaFiles {
    std::fs::write(dir.join(format!("{name}-ca.cnf")), CA_CONFIG).expect("write the CA's config");
    std::fs::write(dir.join(format!("{name}-server.ext")), SERVER_EXTENSIONS)
        .expect("write the server certificate's extensions");
    let file = |suffix: &str| format!("{name}-{suffix}");
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let mut ca = vec!["req", "-x509", "-days", "2", "-config"];
    let (ca_cnf, ca_key, ca_pem) = (file("ca.cnf"), file("ca.key"), file("ca.pem"));
    ca.extend([ca_cnf.as_str()]);
    ca.extend(ec);
    ca.extend(["-keyout", &ca_key, "-out", &ca_pem]);
    openssl(dir, &ca);
    let (key, csr, pem, ext) = (
        file("server.key"),
        file("server.csr"),
        file("server.pem"),
        file("server.ext"),
    );
    let mut request = vec!["req", "-subj", "/CN=127.0.0.1"];
    request.extend(ec);
    request.extend(["-keyout", &key, "-out", &csr]);
    openssl(dir, &request);
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-days",
            "2",
            "-in",
            &csr,
            "-CA",
            &ca_pem,
            "-CAkey",
            &ca_key,
            "-CAcreateserial",
            "-extfile",
            &ext,
            "-out",
            &pem,
        ],
    );
    CaFiles {
        ca: dir.join(ca_pem),
        cert: dir.join(pem),
        key: dir.join(key),
    }
}
