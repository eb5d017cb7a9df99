//! What Google's error bodies add to the status: `{"error": {"code", "message", "status",
//! "details": [...]}}`, where a `google.rpc.RetryInfo` detail says how long to wait after a
//! 429, and a `google.rpc.ErrorInfo` with reason `API_KEY_INVALID` marks a bad key (which
//! Gemini answers with 400, not 401).

use std::time::Duration;

use serde_json::Value as Json;

/// The `details` of a Google error body.
fn details(body: &str) -> Vec<Json> {
    serde_json::from_str::<Json>(body)
        .ok()
        .and_then(|json| json["error"]["details"].as_array().cloned())
        .unwrap_or_default()
}

/// The wait a `RetryInfo` detail asks for (`"retryDelay": "37s"`, `"1.5s"`).
pub(crate) fn retry_delay(body: &str) -> Option<Duration> {
    details(body).iter().find_map(|detail| {
        let delay = detail.get("retryDelay")?.as_str()?.trim();
        let seconds: f64 = delay.strip_suffix('s')?.trim().parse().ok()?;
        (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
    })
}

/// Whether an `ErrorInfo` detail says the API key is invalid or expired.
pub(crate) fn is_bad_key(body: &str) -> bool {
    details(body).iter().any(|detail| {
        matches!(
            detail.get("reason").and_then(Json::as_str),
            Some("API_KEY_INVALID" | "API_KEY_EXPIRED")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATE_LIMITED: &str = r#"{"error": {"code": 429, "message": "Quota exceeded",
        "status": "RESOURCE_EXHAUSTED", "details": [
          {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": []},
          {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}]}}"#;

    const BAD_KEY: &str = r#"{"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.",
        "status": "INVALID_ARGUMENT", "details": [
          {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
           "domain": "googleapis.com"}]}}"#;

    #[test]
    fn reads_the_retry_delay() {
        assert_eq!(retry_delay(RATE_LIMITED), Some(Duration::from_secs(37)));
        let fractional = RATE_LIMITED.replace("37s", "0.5s");
        assert_eq!(retry_delay(&fractional), Some(Duration::from_millis(500)));
        assert_eq!(retry_delay(BAD_KEY), None);
        assert_eq!(retry_delay("not json"), None);
    }

    #[test]
    fn recognises_a_bad_key() {
        assert!(is_bad_key(BAD_KEY));
        assert!(!is_bad_key(RATE_LIMITED));
        assert!(!is_bad_key(r#"{"error": {"message": "x"}}"#));
    }
}
