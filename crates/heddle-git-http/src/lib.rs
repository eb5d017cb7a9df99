//! heddle-git-http owns a git server on loopback for tests (never a dependency of the
//! shipped binaries): git's own `git http-backend` (the smart HTTP protocol, fetch and push)
//! behind HTTP Basic authentication, over plain HTTP or over TLS with a certificate the test
//! makes. It serves every bare repository under one folder and records each request with the
//! answer it got, so a test can show that a clone or push really went over the network and
//! was authenticated.

mod backend;
mod server;
mod tls;

pub use server::{GitHttp, Served};
pub use tls::TlsFiles;
