//! Fuzz target: any bytes (read as lossy UTF-8) must parse without panicking, print back
//! byte for byte, and survive every kind of edit (see `heddle_dot::testing::check_source`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    heddle_dot::testing::check_source(&src);
});
