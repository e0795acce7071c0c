//! The web client's static files (`web-client/`), embedded in the binary and served at `/`.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

#[derive(Embed)]
#[folder = "../web-client/"]
#[exclude = "tests/*"]
#[exclude = "docs/*"]
#[exclude = "node_modules/*"]
#[exclude = "README.md"]
#[exclude = "package.json"]
struct Assets;

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

/// Serves an embedded file: `/` and `/tv` (the page that shows the best live game) are
/// `index.html` (room links are `/?room=<id>`), and any other path must name an embedded file
/// exactly; everything else is 404.
pub async fn static_file(uri: Uri) -> Response {
    let path = match uri.path() {
        "/" | "/tv" => "index.html",
        other => other.trim_start_matches('/'),
    };
    match Assets::get(path) {
        Some(file) => (
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            file.data.into_owned(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}
