//! The web client's files (`web-client/`), embedded in the binary and served at `/`: brotli or
//! gzip as the browser accepts, each with its version as `ETag` (a browser that has it gets
//! `304`), and a file asked for by its current version (`?v=`, as the page names them) kept by
//! the browser for good.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use super::assets::{asset, Asset, PAGE};

/// A file asked for by its version never changes: a browser keeps it a year without asking.
const FOREVER: &str = "public, max-age=31536000, immutable";
/// Anything else (the page above all) is asked for again each time; a browser that has the
/// current one gets `304`, no body.
const ASK_AGAIN: &str = "no-cache";

/// Serves an embedded file: `/` and `/tv` (the page that shows the best live game) are
/// `index.html` (room links are `/?room=<id>`), and any other path must name an embedded file
/// exactly; everything else is 404.
pub async fn static_file(uri: Uri, headers: HeaderMap) -> Response {
    let path = match uri.path() {
        "/" | "/tv" => PAGE,
        other => other.trim_start_matches('/'),
    };
    let Some(file) = asset(path) else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    let etag = format!("W/\"{}\"", file.hash);
    let asked_version = uri
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("v=")));
    let cache = if asked_version == Some(file.hash.as_str()) {
        FOREVER
    } else {
        ASK_AGAIN
    };
    let mut response = if has_it(&headers, &file.hash) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body(&file, &headers)
    };
    let h = response.headers_mut();
    h.insert(header::ETAG, value(&etag));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    response
}

/// The file's bytes in the best encoding the browser accepts.
fn body(file: &Asset, headers: &HeaderMap) -> Response {
    let accepted = accepted_encodings(headers);
    let (bytes, encoding) = match (&file.brotli, &file.gzip) {
        (Some(br), _) if accepted.contains(&"br") => (br.clone(), Some("br")),
        (_, Some(gz)) if accepted.contains(&"gzip") => (gz.clone(), Some("gzip")),
        _ => (file.raw.clone(), None),
    };
    let mut response = (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static(file.content_type),
        )],
        bytes,
    )
        .into_response();
    if let Some(encoding) = encoding {
        response
            .headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    response
}

/// The codings of `Accept-Encoding`, those refused with `q=0` left out.
fn accepted_encodings(headers: &HeaderMap) -> Vec<&str> {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|part| {
            let mut bits = part.split(';').map(str::trim);
            let coding = bits.next()?;
            let refused = bits.any(|b| {
                b.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (!refused).then_some(coding)
        })
        .collect()
}

/// Whether the browser's `If-None-Match` names the file's current version.
fn has_it(headers: &HeaderMap, hash: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| {
            let tag = tag.trim();
            tag == "*" || tag.trim_start_matches("W/").trim_matches('"') == hash
        })
}

fn value(text: &str) -> HeaderValue {
    HeaderValue::from_str(text).unwrap_or_else(|_| HeaderValue::from_static(""))
}
