//! `agentwire inspect`: serves the payload inspector (the npm package's `inspector/` page and
//! the wasm build it runs on) on 127.0.0.1. The page does all the work; this only hands out
//! files, never outside the package directory.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use agentwire::{Error, ErrorKind};

#[derive(clap::Args)]
pub struct InspectArgs {
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 4178)]
    port: u16,
    /// The built npm package (needs `make npm-build`).
    #[arg(long, default_value = "npm")]
    dir: PathBuf,
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("json") => "application/json; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

/// The file a request path names inside `root`, refusing `..` and absolute components.
fn resolve(root: &Path, request_path: &str) -> Option<PathBuf> {
    let relative = request_path.split('?').next()?.trim_start_matches('/');
    let relative = if relative.is_empty() || relative.ends_with('/') {
        format!(
            "{relative}{}",
            if relative.is_empty() {
                "inspector/index.html"
            } else {
                "index.html"
            }
        )
    } else {
        relative.to_string()
    };
    let relative = Path::new(&relative);
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let file = root.join(relative);
    file.is_file().then_some(file)
}

fn respond(mut stream: TcpStream, root: &Path) -> io::Result<()> {
    let mut request_line = String::new();
    BufReader::new(&stream).read_line(&mut request_line)?;
    let mut parts = request_line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let found = (method == "GET").then(|| resolve(root, path)).flatten();
    match found.and_then(|file| std::fs::read(&file).ok().map(|body| (file, body))) {
        Some((file, body)) => {
            write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                content_type(&file),
                body.len()
            )?;
            stream.write_all(&body)
        }
        None => stream.write_all(
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\nconnection: close\r\n\r\nnot found",
        ),
    }
}

pub fn run(args: &InspectArgs) -> Result<ExitCode, Error> {
    let page = args.dir.join("inspector/index.html");
    let wasm = args.dir.join("wasm/web/agentwire_wasm_bg.wasm");
    if !page.is_file() || !wasm.is_file() {
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "{} is not a built npm package (no inspector/index.html or wasm/): run `make npm-build`, or pass --dir",
                args.dir.display()
            ),
        ));
    }
    let root = args.dir.canonicalize()?;
    let listener = TcpListener::bind(("127.0.0.1", args.port)).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!("cannot serve on 127.0.0.1:{}: {e}", args.port),
        )
    })?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "agentwire inspector: http://127.0.0.1:{}/inspector/ (Ctrl-C to stop)",
        listener.local_addr()?.port()
    )?;
    out.flush()?;
    drop(out);
    // A failed connection or response must not stop the server.
    for stream in listener.incoming().flatten() {
        let _ = respond(stream, &root);
    }
    Ok(ExitCode::SUCCESS)
}
