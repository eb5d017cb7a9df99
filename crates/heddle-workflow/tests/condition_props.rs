#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Properties: no input makes the condition parser or evaluator panic.

use std::collections::HashMap;

use heddle_workflow::Condition;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings_never_panic(source in any::<String>()) {
        if let Ok(condition) = Condition::parse(&source) {
            let _ = condition.evaluate(&HashMap::new());
        }
    }

    #[test]
    fn condition_like_strings_never_panic(
        source in r#"[a-z_.()!&|=<>"' 0-9\\\[\]*+?^$]{0,60}"#,
        value in "[a-z0-9 ]{0,10}",
    ) {
        let mut context = HashMap::new();
        context.insert("a".to_owned(), serde_json::Value::String(value));
        match Condition::parse(&source) {
            Ok(condition) => {
                let _ = condition.evaluate(&context);
            }
            Err(error) => {
                prop_assert!(error.offset <= source.len());
                prop_assert!(error.column >= 1);
                prop_assert!(source.is_char_boundary(error.offset));
            }
        }
    }
}
