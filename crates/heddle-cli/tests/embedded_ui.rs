//! The UI inside the binary: a `heddle` copied into an empty folder serves the real built UI
//! (`ui/dist`, byte for byte, with its caching), and `--ui-dir` / `HEDDLE_UI_DIR` still
//! override it for UI development. Needs the UI built before the binary
//! (`npm --prefix ui run build`; scripts/test.sh does it first).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use sandbox::serve_banner;

/// A `heddle serve` process and where to reach it.
struct Served {
    child: Child,
    addr: String,
    token: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response: status, headers (lower-case names), body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }
}

impl Served {
    /// Starts `bin serve --port 0` in `cwd` with `extra` arguments and environment.
    fn start(bin: &Path, cwd: &Path, home: &Path, args: &[&str], env: &[(&str, &Path)]) -> Self {
        let out = home.join("serve.out");
        let mut command = Command::new(bin);
        command
            .args(["serve", "--port", "0"])
            .args(args)
            .current_dir(cwd)
            .env("HEDDLE_HOME", home.join("heddle"))
            .env("HOME", home)
            .env_remove("HEDDLE_UI_DIR")
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::fs::File::create(home.join("serve.err")).unwrap());
        for (name, value) in env {
            command.env(name, value);
        }
        let child = command.spawn().unwrap();
        let banner = serve_banner(&out);
        Served {
            child,
            addr: banner.addr,
            token: banner.token,
        }
    }

    fn get(&self, path: &str) -> Answer {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nConnection: close\r\n\r\n",
            self.addr, self.token
        )
        .unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&raw[..split]).into_owned();
        let mut lines = head.lines();
        let status = lines.next().unwrap()[9..12].parse().unwrap();
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        Answer {
            status,
            headers,
            body: raw[split + 4..].to_vec(),
        }
    }
}

/// The repository's built UI, which the binary embedded when it was compiled.
fn built_ui() -> PathBuf {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/dist");
    assert!(
        dist.join("index.html").is_file(),
        "ui/dist is not built: run `npm --prefix ui ci && npm --prefix ui run build`, then \
         build and test heddle again (the binary embeds it)"
    );
    dist
}

/// The hashed script files index.html loads (`./assets/index-HASH.js`).
fn referenced_assets(index: &str) -> Vec<String> {
    index
        .split(['"', '\''])
        .filter_map(|part| part.strip_prefix("./assets/"))
        .map(|name| format!("assets/{name}"))
        .collect()
}

#[test]
fn a_binary_copied_to_an_empty_folder_serves_the_built_ui() {
    let dist = built_ui();
    let place = tempfile::tempdir().unwrap();
    let empty = place.path().join("elsewhere");
    std::fs::create_dir(&empty).unwrap();
    let bin = empty.join("heddle");
    std::fs::copy(env!("CARGO_BIN_EXE_heddle"), &bin).unwrap();
    let served = Served::start(&bin, &empty, place.path(), &[], &[]);

    let index = served.get("/");
    let expected_index = std::fs::read(dist.join("index.html")).unwrap();
    assert_eq!(index.status, 200);
    assert_eq!(index.body, expected_index, "/ is not ui/dist/index.html");
    assert_eq!(index.header("cache-control"), "no-cache");
    assert_eq!(index.header("content-type"), "text/html; charset=utf-8");
    assert_eq!(index.header("x-content-type-options"), "nosniff");
    assert_eq!(index.header("x-frame-options"), "SAMEORIGIN");

    let assets = referenced_assets(&String::from_utf8_lossy(&index.body));
    assert!(!assets.is_empty(), "index.html names no asset");
    for asset in assets {
        let answer = served.get(&format!("/{asset}"));
        assert_eq!(answer.status, 200, "{asset}");
        assert_eq!(
            answer.body,
            std::fs::read(dist.join(&asset)).unwrap(),
            "{asset} differs from ui/dist's"
        );
        assert_eq!(
            answer.header("cache-control"),
            "public, max-age=31536000, immutable",
            "{asset}"
        );
        let kind = answer.header("content-type");
        assert!(
            kind.contains("javascript") || kind.starts_with("text/css"),
            "{asset}: {kind}"
        );
    }
    // A route of the UI's own gets the page; a stale asset does not.
    assert_eq!(served.get("/runs/01JXYZ").body, expected_index);
    assert_eq!(served.get("/assets/index-Stale000.js").status, 404);
    let stderr = std::fs::read_to_string(place.path().join("serve.err")).unwrap();
    assert!(!stderr.contains("without its UI"), "{stderr}");
}

#[test]
fn ui_dir_and_heddle_ui_dir_override_the_embedded_ui() {
    let place = tempfile::tempdir().unwrap();
    let ui = place.path().join("dev-ui");
    std::fs::create_dir(&ui).unwrap();
    std::fs::write(ui.join("index.html"), "<p>work in progress</p>").unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_heddle"));

    let by_env = Served::start(
        bin,
        place.path(),
        place.path(),
        &[],
        &[("HEDDLE_UI_DIR", &ui)],
    );
    assert_eq!(by_env.get("/").body, b"<p>work in progress</p>");
    drop(by_env);
    let flag = ui.to_str().unwrap();
    let by_flag = Served::start(bin, place.path(), place.path(), &["--ui-dir", flag], &[]);
    assert_eq!(by_flag.get("/").body, b"<p>work in progress</p>");
}

#[test]
fn a_ui_folder_without_an_index_is_refused_with_what_to_give() {
    let place = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_heddle"))
        .args(["serve", "--port", "0", "--ui-dir"])
        .arg(place.path().join("nothing-here"))
        .env("HEDDLE_HOME", place.path().join("heddle"))
        .env("HOME", place.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--ui-dir") && stderr.contains("no index.html"),
        "{stderr}"
    );
}
