//! Fuzz target: any text must either parse as a condition or give an error whose column
//! lies inside the text, and a parsed condition must evaluate without panicking against an
//! empty context and one where the text's own words are keys with mixed value types.
#![no_main]

use std::collections::HashMap;

use heddle_workflow::Condition;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match Condition::parse(&text) {
        Ok(condition) => {
            let empty: HashMap<String, serde_json::Value> = HashMap::new();
            let _ = condition.evaluate(&empty);
            let words = text.split(|c: char| !c.is_alphanumeric() && c != '.' && c != '_');
            let filled: HashMap<String, serde_json::Value> = words
                .filter(|w| !w.is_empty())
                .enumerate()
                .map(|(i, w)| {
                    let value = match i % 4 {
                        0 => json!(w),
                        1 => json!(i),
                        2 => json!(i % 2 == 0),
                        _ => json!(null),
                    };
                    (w.to_owned(), value)
                })
                .collect();
            let _ = condition.evaluate(&filled);
        }
        Err(err) => {
            let columns = text.chars().count() + 1;
            assert!(err.column >= 1 && err.column <= columns, "column {} outside 1..={columns}", err.column);
        }
    }
});
