//! Time, passed in: the wall clock for timestamps, a monotonic clock for durations, and
//! sleeping. Tests use [`FakeClock`], whose sleeps return at once and advance its time.

use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

/// A boxed future that sleeps.
pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send>>;

/// The engine's source of time.
pub trait Clock: Send + Sync {
    /// Wall-clock time, for timestamps.
    fn now(&self) -> SystemTime;
    /// Monotonic time since an arbitrary fixed point, for durations and timeouts.
    fn monotonic(&self) -> Duration;
    /// Sleeps for `duration`.
    fn sleep(&self, duration: Duration) -> Sleep;
}

/// The real clock.
#[derive(Debug)]
pub struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// A clock whose monotonic time starts now.
    pub fn new() -> Self {
        SystemClock {
            origin: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }

    fn monotonic(&self) -> Duration {
        self.origin.elapsed()
    }

    fn sleep(&self, duration: Duration) -> Sleep {
        Box::pin(tokio::time::sleep(duration))
    }
}

/// A clock for tests: time only moves when something sleeps (or [`FakeClock::advance`] is
/// called), and every sleep is recorded.
#[derive(Debug)]
pub struct FakeClock {
    state: Mutex<FakeState>,
}

#[derive(Debug)]
struct FakeState {
    wall: SystemTime,
    elapsed: Duration,
    sleeps: Vec<Duration>,
}

impl FakeClock {
    /// A fake clock reading `wall` (e.g. `UNIX_EPOCH + 1_700_000_000 s`).
    pub fn new(wall: SystemTime) -> Self {
        FakeClock {
            state: Mutex::new(FakeState {
                wall,
                elapsed: Duration::ZERO,
                sleeps: Vec::new(),
            }),
        }
    }

    /// Moves time forward by `by`.
    pub fn advance(&self, by: Duration) {
        let mut state = self.lock();
        state.wall += by;
        state.elapsed += by;
    }

    /// Every sleep requested so far, in order.
    pub fn sleeps(&self) -> Vec<Duration> {
        self.lock().sleeps.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FakeState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Clock for FakeClock {
    fn now(&self) -> SystemTime {
        self.lock().wall
    }

    fn monotonic(&self) -> Duration {
        self.lock().elapsed
    }

    fn sleep(&self, duration: Duration) -> Sleep {
        {
            let mut state = self.lock();
            state.sleeps.push(duration);
            state.wall += duration;
            state.elapsed += duration;
        }
        Box::pin(tokio::task::yield_now())
    }
}

/// Milliseconds since the Unix epoch of `time` (0 before the epoch).
pub fn epoch_millis(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// `time` as RFC 3339 with milliseconds, in UTC (`2026-11-22T10:00:00.000Z`).
pub fn rfc3339(time: SystemTime) -> String {
    humantime::format_rfc3339_millis(time).to_string()
}
