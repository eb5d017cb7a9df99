#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Durations: every unit, sums, errors, formatting.

use heddle_workflow::{DurationError, format_duration, parse_duration};

#[test]
fn parses_every_unit() {
    assert_eq!(parse_duration("250ms"), Ok(250));
    assert_eq!(parse_duration("30s"), Ok(30_000));
    assert_eq!(parse_duration("15m"), Ok(900_000));
    assert_eq!(parse_duration("2h"), Ok(7_200_000));
    assert_eq!(parse_duration("1d"), Ok(86_400_000));
    assert_eq!(parse_duration("0s"), Ok(0));
}

#[test]
fn parses_sums_and_trims() {
    assert_eq!(parse_duration("1h30m"), Ok(5_400_000));
    assert_eq!(parse_duration("1m30s500ms"), Ok(90_500));
    assert_eq!(parse_duration("  45s \n"), Ok(45_000));
}

#[test]
fn rejects_missing_unit() {
    assert_eq!(
        parse_duration("30"),
        Err(DurationError::MissingUnit("30".into()))
    );
    let message = parse_duration("30").unwrap_err().to_string();
    assert!(message.contains("`30s`"), "{message}");
}

#[test]
fn rejects_unknown_unit() {
    assert_eq!(
        parse_duration("30x"),
        Err(DurationError::UnknownUnit {
            text: "30x".into(),
            unit: "x".into()
        })
    );
    assert!(matches!(
        parse_duration("5sec"),
        Err(DurationError::UnknownUnit { .. })
    ));
    assert!(matches!(
        parse_duration("5S"),
        Err(DurationError::UnknownUnit { .. })
    ));
}

#[test]
fn rejects_malformed() {
    assert_eq!(parse_duration(""), Err(DurationError::Empty));
    assert_eq!(parse_duration("   "), Err(DurationError::Empty));
    assert_eq!(
        parse_duration("s"),
        Err(DurationError::Malformed("s".into()))
    );
    assert_eq!(
        parse_duration("-5s"),
        Err(DurationError::Malformed("-5s".into()))
    );
    assert_eq!(
        parse_duration("1.5h"),
        Err(DurationError::Malformed("1.5h".into()))
    );
    assert_eq!(
        parse_duration("5 s"),
        Err(DurationError::Malformed("5 s".into()))
    );
}

#[test]
fn rejects_overflow() {
    assert!(matches!(
        parse_duration("99999999999999999999s"),
        Err(DurationError::Overflow(_))
    ));
    assert!(matches!(
        parse_duration("9999999999999999d"),
        Err(DurationError::Overflow(_))
    ));
}

#[test]
fn formats_with_largest_units() {
    assert_eq!(format_duration(0), "0ms");
    assert_eq!(format_duration(250), "250ms");
    assert_eq!(format_duration(30_000), "30s");
    assert_eq!(format_duration(90_000), "1m30s");
    assert_eq!(format_duration(86_400_000 + 1), "1d1ms");
}

#[test]
fn format_round_trips() {
    for ms in [0, 1, 999, 1_000, 61_001, 3_600_000, 123_456_789] {
        assert_eq!(parse_duration(&format_duration(ms)), Ok(ms));
    }
}
