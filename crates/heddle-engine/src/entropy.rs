//! Randomness, passed in: run ids and retry jitter draw from an [`Entropy`], so tests can
//! seed it.

use std::sync::Mutex;
use std::time::SystemTime;

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

use crate::clock::epoch_millis;

/// A source of random numbers.
pub trait Entropy: Send + Sync {
    /// The next random 64 bits.
    fn next_u64(&self) -> u64;

    /// A random float in `[0, 1)`.
    fn next_unit(&self) -> f64 {
        // 53 random bits make every representable value in [0, 1) equally likely.
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Randomness from a generator seeded once by the operating system.
#[derive(Debug)]
pub struct OsEntropy {
    rng: Mutex<StdRng>,
}

impl OsEntropy {
    /// Seeds from the operating system.
    pub fn new() -> Self {
        OsEntropy {
            rng: Mutex::new(StdRng::from_os_rng()),
        }
    }
}

impl Default for OsEntropy {
    fn default() -> Self {
        Self::new()
    }
}

impl Entropy for OsEntropy {
    fn next_u64(&self) -> u64 {
        self.rng
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .next_u64()
    }
}

/// Deterministic randomness for tests.
#[derive(Debug)]
pub struct SeededEntropy {
    rng: Mutex<StdRng>,
}

impl SeededEntropy {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SeededEntropy {
            rng: Mutex::new(StdRng::seed_from_u64(seed)),
        }
    }
}

impl Entropy for SeededEntropy {
    fn next_u64(&self) -> u64 {
        self.rng
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .next_u64()
    }
}

/// A new ULID (time-ordered, 26 Crockford base-32 characters) for `now`.
pub fn new_ulid(now: SystemTime, entropy: &dyn Entropy) -> String {
    let random = (u128::from(entropy.next_u64()) << 64) | u128::from(entropy.next_u64());
    ulid::Ulid::from_parts(epoch_millis(now), random).to_string()
}
