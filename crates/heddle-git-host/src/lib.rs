//! heddle-git-host owns git servers on loopback for tests (never a dependency of the
//! shipped binaries), serving every bare repository under one folder:
//!
//! - [`GitHttp`]: git's own `git http-backend` (the smart HTTP protocol, fetch and push)
//!   behind HTTP Basic authentication, over plain HTTP or over TLS with a certificate the
//!   test makes ([`TlsFiles`]); it records each request with the answer it got.
//! - [`GitSsh`]: an SSH server that accepts one public key ([`SshKeyPair`]) and runs
//!   `git-upload-pack` / `git-receive-pack`; it records each program it ran.
//!
//! So a test can show that a clone or push really went over the network and was
//! authenticated.

mod backend;
mod http_server;
mod loopback;
mod ssh_server;
mod tls;

pub use http_server::{GitHttp, Served};
pub use ssh_server::{GitSsh, Ran, SshKeyPair};
pub use tls::TlsFiles;
