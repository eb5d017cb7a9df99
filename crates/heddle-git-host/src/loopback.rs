//! [`Loopback`]: the life of a test server, shared by the HTTP and SSH hosts: a listener on
//! 127.0.0.1 at a free port, served on a thread of its own with the tokio runtime the
//! server wants, until the handle is dropped.

use std::future::Future;
use std::io;
use std::thread::JoinHandle;

/// A server running on loopback; dropping it stops the server and waits for its thread.
pub(crate) struct Loopback {
    /// The port it listens on.
    pub(crate) port: u16,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Loopback {
    /// Binds a free loopback port and runs `serve` on it in the thread `name`, on `runtime`,
    /// until dropped (or until `serve` ends).
    pub(crate) fn start<F, S>(
        name: &str,
        runtime: tokio::runtime::Runtime,
        serve: F,
    ) -> io::Result<Loopback>
    where
        F: FnOnce(tokio::net::TcpListener) -> S + Send + 'static,
        S: Future<Output = ()>,
    {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                runtime.block_on(async move {
                    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                        return;
                    };
                    tokio::select! { () = serve(listener) => {}, _ = stopped => {} }
                });
            })?;
        Ok(Loopback {
            port,
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
