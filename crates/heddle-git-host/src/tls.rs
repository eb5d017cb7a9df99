//! HTTPS for [`crate::GitHttp`]: a certificate for 127.0.0.1 made with the `openssl` command
//! (the CA a client must trust is the certificate itself), and a listener that completes the
//! TLS handshake before axum sees a connection.

use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::server::TlsStream;

/// A self-signed certificate for `127.0.0.1` and `localhost` and its key, as PEM files.
pub struct TlsFiles {
    /// The certificate; point a client's `SSL_CERT_FILE` at it to trust the server.
    pub certificate: PathBuf,
    /// Its private key.
    pub key: PathBuf,
}

impl TlsFiles {
    /// Makes a certificate and key in `folder` with `openssl req`.
    pub fn make(folder: &Path) -> io::Result<TlsFiles> {
        let files = TlsFiles {
            certificate: folder.join("git-http-cert.pem"),
            key: folder.join("git-http-key.pem"),
        };
        let made = Command::new("openssl")
            .args([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            ])
            .args(["-subj", "/CN=127.0.0.1"])
            .args(["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
            .arg("-keyout")
            .arg(&files.key)
            .arg("-out")
            .arg(&files.certificate)
            .output()?;
        if !made.status.success() {
            return Err(io::Error::other(format!(
                "openssl req failed: {}",
                String::from_utf8_lossy(&made.stderr)
            )));
        }
        Ok(files)
    }

    pub(crate) fn acceptor(&self) -> io::Result<TlsAcceptor> {
        let chain = CertificateDer::pem_file_iter(&self.certificate)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| io::Error::other(format!("{}: {e}", self.certificate.display())))?;
        let key = PrivateKeyDer::from_pem_file(&self.key)
            .map_err(|e| io::Error::other(format!("{}: {e}", self.key.display())))?;
        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(io::Error::other)?
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .map_err(io::Error::other)?;
        Ok(TlsAcceptor::from(Arc::new(config)))
    }
}

/// Connections from `listener` after their TLS handshake; a failed handshake (a client that
/// does not trust the certificate) is dropped and the next connection awaited.
pub(crate) struct TlsListener {
    listener: TcpListener,
    acceptor: TlsAcceptor,
}

impl TlsListener {
    pub(crate) fn new(listener: TcpListener, acceptor: TlsAcceptor) -> Self {
        TlsListener { listener, acceptor }
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((stream, address)) = self.listener.accept().await else {
                continue;
            };
            if let Ok(tls) = self.acceptor.accept(stream).await {
                return (tls, address);
            }
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.listener.local_addr()
    }
}
