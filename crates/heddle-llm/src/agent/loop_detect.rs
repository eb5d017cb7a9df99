//! Spots an agent going round in circles: the same tool call, or the same short sequence of
//! calls, repeated back to back. The first time the model is warned; if it carries on, the
//! stage stops.

use serde_json::Value as Json;

/// The longest repeating sequence of calls looked for.
const MAX_PATTERN: usize = 3;

/// How many times in a row one call must repeat to count as a loop.
const SINGLE_REPEATS: usize = 4;

/// How many times in a row a sequence of two or three calls must repeat.
const SEQUENCE_REPEATS: usize = 3;

/// What the detector makes of the latest calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoopVerdict {
    /// No loop.
    Fine,
    /// A loop, seen for the first time: tell the model.
    Warn(String),
    /// A loop again after the warning: stop the stage.
    Stop(String),
}

/// Remembers the calls of one agent session.
#[derive(Debug, Default)]
pub struct LoopDetector {
    recent: Vec<String>,
    warned: bool,
}

impl LoopDetector {
    /// Records a call to `tool` with `arguments` and says whether the calls now loop.
    pub fn record(&mut self, tool: &str, arguments: &Json) -> LoopVerdict {
        self.recent.push(format!("{tool} {}", canonical(arguments)));
        let Some(description) = self.repeating() else {
            return LoopVerdict::Fine;
        };
        // Start afresh: after the warning the model needs a whole new loop to be stopped.
        self.recent.clear();
        if self.warned {
            LoopVerdict::Stop(description)
        } else {
            self.warned = true;
            LoopVerdict::Warn(description)
        }
    }

    /// A description of the pattern the latest calls repeat, if they do.
    fn repeating(&self) -> Option<String> {
        for length in 1..=MAX_PATTERN {
            let repeats = if length == 1 {
                SINGLE_REPEATS
            } else {
                SEQUENCE_REPEATS
            };
            let window = length * repeats;
            if self.recent.len() < window {
                continue;
            }
            let tail = &self.recent[self.recent.len() - window..];
            let pattern = &tail[..length];
            if tail.chunks(length).all(|chunk| chunk == pattern) {
                let calls = pattern
                    .iter()
                    .map(|call| shorten(call))
                    .collect::<Vec<_>>()
                    .join(", then ");
                return Some(format!("{calls} — {repeats} times in a row"));
            }
        }
        None
    }
}

/// JSON with object keys sorted, so argument order does not hide a repeat.
fn canonical(value: &Json) -> String {
    match value {
        Json::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{k:?}:{}", canonical(&map[k])))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Json::Array(items) => {
            let items: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

/// A call's signature cut to a readable length.
fn shorten(call: &str) -> String {
    const LIMIT: usize = 120;
    if call.chars().count() <= LIMIT {
        return call.to_owned();
    }
    let head: String = call.chars().take(LIMIT).collect();
    format!("{head}…")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn one_call_repeated_warns_then_stops() {
        let mut detector = LoopDetector::default();
        let args = json!({"path": "a.txt"});
        for _ in 0..3 {
            assert_eq!(detector.record("read_file", &args), LoopVerdict::Fine);
        }
        let LoopVerdict::Warn(text) = detector.record("read_file", &args) else {
            unreachable!("the fourth identical call is a loop");
        };
        assert!(text.contains("read_file"), "{text}");
        for _ in 0..3 {
            assert_eq!(detector.record("read_file", &args), LoopVerdict::Fine);
        }
        assert!(matches!(
            detector.record("read_file", &args),
            LoopVerdict::Stop(_)
        ));
    }

    #[test]
    fn key_order_does_not_hide_a_repeat_but_other_arguments_do() {
        let mut detector = LoopDetector::default();
        for i in 0..8 {
            let args = json!({"path": format!("f{i}.txt"), "limit": 10});
            assert_eq!(detector.record("read_file", &args), LoopVerdict::Fine);
        }
        let mut detector = LoopDetector::default();
        let a = serde_json::from_str::<Json>(r#"{"a":1,"b":2}"#).unwrap_or_default();
        let b = serde_json::from_str::<Json>(r#"{"b":2,"a":1}"#).unwrap_or_default();
        for args in [&a, &b, &a] {
            assert_eq!(detector.record("glob", args), LoopVerdict::Fine);
        }
        assert!(matches!(detector.record("glob", &b), LoopVerdict::Warn(_)));
    }

    #[test]
    fn a_sequence_of_two_calls_repeating_is_a_loop() {
        let mut detector = LoopDetector::default();
        let edit = json!({"path": "x", "old_string": "a", "new_string": "b"});
        let test = json!({"command": "make test"});
        let mut verdicts = Vec::new();
        for _ in 0..3 {
            verdicts.push(detector.record("edit_file", &edit));
            verdicts.push(detector.record("shell", &test));
        }
        assert!(verdicts[..5].iter().all(|v| *v == LoopVerdict::Fine));
        assert!(matches!(verdicts[5], LoopVerdict::Warn(_)));
    }
}
