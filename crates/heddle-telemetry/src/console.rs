//! Log lines on stderr that do not garble a view drawn in place there: a door drawing such a
//! view (the CLI's live run view) installs an [`Interlude`] with [`hold`], and each line is
//! then written inside it (the view clears itself, the line is written, the view is redrawn).

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

/// Runs the given write with the view on stderr out of the way.
pub type Interlude = Arc<dyn Fn(&mut dyn FnMut()) + Send + Sync>;

static INTERLUDE: Mutex<Option<Interlude>> = Mutex::new(None);

/// Keeps an interlude installed; dropping it removes it.
#[must_use = "the interlude is removed when this is dropped"]
pub struct Hold(());

impl Drop for Hold {
    fn drop(&mut self) {
        *INTERLUDE.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// Writes every log line inside `interlude` until the returned hold is dropped.
pub fn hold(interlude: Interlude) -> Hold {
    *INTERLUDE.lock().unwrap_or_else(PoisonError::into_inner) = Some(interlude);
    Hold(())
}

/// The stderr writer of the console layer.
pub(crate) struct Stderr;

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Stderr {
    type Writer = Line;

    fn make_writer(&'a self) -> Line {
        Line(Vec::new())
    }
}

/// One log line, collected and written when complete.
pub(crate) struct Line(Vec<u8>);

impl Write for Line {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        if self.0.is_empty() {
            return;
        }
        let interlude = INTERLUDE
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let mut write = || {
            let _ = std::io::stderr().lock().write_all(&self.0);
        };
        match interlude {
            Some(interlude) => interlude(&mut write),
            None => write(),
        }
    }
}
