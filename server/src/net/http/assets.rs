//! The web client's files as they are served: each with a hash of its content, compressed once
//! (brotli and gzip), and the page rewritten to name every file by that hash — the scripts
//! through an import map, with a preload of each — so that a browser keeps them for good and
//! asks again only for the page. A debug build reads `web-client/` from disk: a file that
//! changed gets its new hash on the next request.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::{Arc, LazyLock};

use axum::body::Bytes;
use dashmap::DashMap;
use rust_embed::{Embed, EmbeddedFile};

#[derive(Embed)]
#[folder = "../web-client/"]
#[exclude = "tests/*"]
#[exclude = "docs/*"]
#[exclude = "node_modules/*"]
#[exclude = "README.md"]
#[exclude = "package.json"]
struct Files;

/// The page every address of the hall shows.
pub const PAGE: &str = "index.html";

/// Smaller files go as they are: compressing them saves less than its framing costs.
const COMPRESS_FROM_BYTES: usize = 512;

/// One file as served.
pub struct Asset {
    /// The first 16 hex digits of its SHA-256: its version in links, and its `ETag`.
    pub hash: String,
    pub content_type: &'static str,
    pub raw: Bytes,
    /// Compressed copies, when they are smaller.
    pub brotli: Option<Bytes>,
    pub gzip: Option<Bytes>,
}

/// The files served so far, by path: a file is compressed once per content.
static SERVED: LazyLock<DashMap<String, Arc<Asset>>> = LazyLock::new(DashMap::new);

/// The file at `path` (the page rewritten), or `None` when there is none. A file's hash is
/// the one `rust-embed` computed when it embedded it (a debug build: when it read it), so a
/// request for a file compressed already copies nothing.
#[must_use]
pub fn asset(path: &str) -> Option<Arc<Asset>> {
    let (raw, hash): (Cow<'static, [u8]>, String) = if path == PAGE {
        let page = page()?.into_bytes();
        let hash = hash_of(&page);
        (Cow::Owned(page), hash)
    } else {
        let file = Files::get(path)?;
        let hash = version(&file);
        (file.data, hash)
    };
    if let Some(known) = SERVED.get(path).filter(|a| a.hash == hash) {
        return Some(known.clone());
    }
    let raw = Bytes::from(raw.into_owned());
    let asset = Arc::new(Asset {
        content_type: content_type(path),
        brotli: compressed(&raw, brotli_of),
        gzip: compressed(&raw, gzip_of),
        raw,
        hash,
    });
    SERVED.insert(path.to_string(), asset.clone());
    Some(asset)
}

/// The first 16 hex digits of the SHA-256 of `bytes`.
fn hash_of(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex16(&Sha256::digest(bytes))
}

/// An embedded file's version: the first 16 hex digits of its SHA-256.
fn version(file: &EmbeddedFile) -> String {
    hex16(&file.metadata.sha256_hash())
}

fn hex16(digest: &[u8]) -> String {
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The version of every file but the page, by path.
fn versions() -> BTreeMap<String, String> {
    Files::iter()
        .filter(|p| p != PAGE)
        .filter_map(|p| Some((p.to_string(), version(&Files::get(&p)?))))
        .collect()
}

/// The page with every file named by its version: the stylesheet, the icon and the first
/// script by their links, every script by an import map (imports name plain paths, which the
/// map turns into versioned ones) and a preload each, so that a first visit asks for them all
/// at once rather than one level of imports after another.
fn page() -> Option<String> {
    let file = Files::get(PAGE)?;
    let mut html = String::from_utf8(file.data.into_owned()).ok()?;
    let versions = versions();
    let versioned = |path: &str| format!("{path}?v={}", versions[path]);
    let scripts: Vec<&String> = versions.keys().filter(|p| p.ends_with(".js")).collect();
    let imports: serde_json::Map<String, serde_json::Value> = scripts
        .iter()
        .map(|p| (format!("./{p}"), format!("./{}", versioned(p)).into()))
        .collect();
    let mut head = format!(
        "<script type=\"importmap\">{}</script>\n",
        serde_json::json!({ "imports": imports })
    );
    for p in &scripts {
        head.push_str(&format!(
            "  <link rel=\"modulepreload\" href=\"{}\">\n",
            versioned(p)
        ));
    }
    for (attr, path) in [
        ("href", "favicon.svg"),
        ("href", "style.css"),
        ("href", "study.css"),
        ("href", "challenges.css"),
        ("href", "blocks.css"),
        ("src", "js/main.js"),
    ] {
        if versions.contains_key(path) {
            html = html.replace(
                &format!("{attr}=\"{path}\""),
                &format!("{attr}=\"{}\"", versioned(path)),
            );
        }
    }
    // The map comes before any module script: first in the head, after its meta lines.
    let at = html.find("  <link rel=\"icon\"")?;
    html.insert_str(at, &format!("  {head}"));
    Some(html)
}

fn compressed(raw: &[u8], how: fn(&[u8]) -> Option<Vec<u8>>) -> Option<Bytes> {
    if raw.len() < COMPRESS_FROM_BYTES {
        return None;
    }
    how(raw).filter(|c| c.len() < raw.len()).map(Bytes::from)
}

fn brotli_of(raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    {
        // Quality 11, window 22: the smallest output; each file is compressed once.
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
        w.write_all(raw).ok()?;
    }
    Some(out)
}

fn gzip_of(raw: &[u8]) -> Option<Vec<u8>> {
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    w.write_all(raw).ok()?;
    w.finish().ok()
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_every_file_by_its_version() {
        let page = String::from_utf8(asset(PAGE).unwrap().raw.to_vec()).unwrap();
        let versions = versions();
        let main = format!("src=\"js/main.js?v={}\"", versions["js/main.js"]);
        assert!(page.contains(&main), "{page}");
        assert!(page.contains(&format!("style.css?v={}", versions["style.css"])));
        assert!(page.contains(&format!("study.css?v={}", versions["study.css"])));
        assert!(page.contains(&format!("challenges.css?v={}", versions["challenges.css"])));
        let start = page.find("<script type=\"importmap\">").unwrap();
        assert!(start < page.find("<script type=\"module\"").unwrap());
        for (path, v) in versions.iter().filter(|(p, _)| p.ends_with(".js")) {
            assert!(
                page.contains(&format!("\"./{path}\":\"./{path}?v={v}\"")),
                "{path}"
            );
            assert!(page.contains(&format!("modulepreload\" href=\"{path}?v={v}\"")));
        }
    }

    #[test]
    fn files_are_compressed_once_and_read_back_the_same() {
        use std::io::Read;
        let a = asset("style.css").unwrap();
        let b = asset("style.css").unwrap();
        assert!(
            Arc::ptr_eq(&a, &b),
            "the second request reuses the first's work"
        );
        let mut gz = Vec::new();
        flate2::read::GzDecoder::new(&a.gzip.as_ref().unwrap()[..])
            .read_to_end(&mut gz)
            .unwrap();
        assert_eq!(gz, a.raw);
        let mut br = Vec::new();
        brotli::Decompressor::new(&a.brotli.as_ref().unwrap()[..], 4096)
            .read_to_end(&mut br)
            .unwrap();
        assert_eq!(br, a.raw);
        assert!(a.brotli.as_ref().unwrap().len() < a.raw.len() / 3);
        assert!(asset("nothing-here.js").is_none());
    }
}
