//! The XML event loop: quick-xml events in, [`JUnitReport`] out.
//!
//! Suites are a stack of frames (nesting is allowed); a case collects the status, message
//! and texts of its children until it closes. Text inside elements we do not read
//! (properties, retry records and their output) is ignored.

use std::borrow::Cow;

use quick_xml::Reader;
use quick_xml::XmlVersion;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesRef, BytesStart, Event};

use super::text::{attachments, capped, seconds, xml_error};
use super::{
    CaseStatus, JUnitCase, JUnitError, JUnitReport, JUnitSuite, MAX_OUTPUT_CHARS, MAX_TEXT_CHARS,
};

/// The most bytes buffered of one text before it is capped (attachment lines are looked
/// for in this much output).
const BUFFER_LIMIT_BYTES: usize = 1 << 20;

/// Parses a whole document.
pub(super) fn parse(xml: &str) -> Result<JUnitReport, JUnitError> {
    let xml = xml.strip_prefix('\u{feff}').unwrap_or(xml);
    let mut reader = Reader::from_str(xml);
    let config = reader.config_mut();
    config.expand_empty_elements = true;
    config.allow_dangling_amp = true;
    let mut parser = Parser::default();
    loop {
        let at = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|error| xml_error(xml, reader.error_position(), &error.to_string()))?;
        match event {
            Event::Start(start) => parser
                .start(&start)
                .map_err(|problem| problem.into_error(xml, at))?,
            Event::End(_) => parser.end(),
            Event::Text(text) => parser.text(&text.xml10_content()),
            Event::CData(cdata) => parser.text(&cdata.xml10_content()),
            Event::GeneralRef(reference) => parser.reference(&reference),
            Event::Eof => break,
            _ => {}
        }
    }
    parser.finish(xml)
}

/// A problem found while reading an element, placed in the document by the caller.
enum Problem {
    NotJUnit(String),
    Attribute(String),
}

impl Problem {
    fn into_error(self, xml: &str, at: u64) -> JUnitError {
        match self {
            Problem::NotJUnit(root) => JUnitError::NotJUnit { root },
            Problem::Attribute(message) => xml_error(xml, at, &message),
        }
    }
}

/// An open `<testsuite>` or `<testsuites>`.
struct Frame {
    /// Element depth of the suite's start tag.
    depth: usize,
    /// `<testsuites>`: a collection, never reported from its count attributes.
    collection: bool,
    name: String,
    tests: Option<usize>,
    failures: Option<usize>,
    errors: Option<usize>,
    skipped: Option<usize>,
    time: Option<f64>,
    timestamp: Option<String>,
    cases: Vec<JUnitCase>,
    has_child_suites: bool,
    /// Where in the report's suites this one goes, so parents precede their children.
    slot: usize,
}

/// An open `<testcase>`.
struct OpenCase {
    depth: usize,
    case: JUnitCase,
    text: String,
    out: String,
    err: String,
}

/// Where text goes while an element inside a case is open.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sink {
    Text,
    Out,
    Err,
    Ignore,
}

#[derive(Default)]
struct Parser {
    /// Local names of the open elements.
    open: Vec<String>,
    seen_root: bool,
    /// Depth of the first element of a second root that is not JUnit; everything under
    /// it is skipped.
    skipping: Option<usize>,
    frames: Vec<Frame>,
    case: Option<OpenCase>,
    /// The element inside the case whose text is being collected, and its depth.
    sink: Option<(Sink, usize)>,
    /// The summed times of the suites directly under a `<testsuites>` root.
    children_time: Option<f64>,
    report: JUnitReport,
}

impl Parser {
    fn start(&mut self, start: &BytesStart<'_>) -> Result<(), Problem> {
        let qname = start.name();
        let name = start.local_name().into_inner().to_string();
        let depth = self.open.len();
        self.open.push(name.clone());
        if self.skipping.is_some() || self.sink.is_some() {
            return Ok(());
        }
        let is_suite = name == "testsuite" || name == "testsuites";
        if depth == 0 {
            if !self.seen_root && !is_suite {
                return Err(Problem::NotJUnit(qname.into_inner().to_string()));
            }
            self.seen_root = true;
            if !is_suite {
                self.skipping = Some(depth);
                return Ok(());
            }
        }
        let attrs = attributes(start)?;
        if let Some(open) = &mut self.case {
            let sink = case_child(&mut open.case, &name, &attrs);
            self.sink = Some((sink, depth));
        } else if is_suite {
            self.open_suite(depth, name == "testsuites", &attrs);
        } else if name == "testcase" {
            self.case = Some(OpenCase {
                depth,
                case: JUnitCase {
                    classname: attr(&attrs, "classname").filter(|c| !c.is_empty()),
                    name: attr(&attrs, "name").unwrap_or_default(),
                    time: attr(&attrs, "time").and_then(|t| seconds(&t)),
                    ..JUnitCase::default()
                },
                text: String::new(),
                out: String::new(),
                err: String::new(),
            });
        }
        Ok(())
    }

    fn open_suite(&mut self, depth: usize, collection: bool, attrs: &[(String, String)]) {
        let own_name = attr(attrs, "name").unwrap_or_default();
        let parent = self.frames.last_mut();
        let name = match parent {
            Some(parent) => {
                parent.has_child_suites = true;
                match (
                    parent.collection,
                    parent.name.is_empty(),
                    own_name.is_empty(),
                ) {
                    (false, false, false) => format!("{} / {own_name}", parent.name),
                    (false, false, true) => parent.name.clone(),
                    _ => own_name,
                }
            }
            None => own_name,
        };
        let count = |key: &str| attr(attrs, key).and_then(|v| v.trim().parse::<usize>().ok());
        let time = attr(attrs, "time").and_then(|t| seconds(&t));
        if depth == 0 && collection {
            self.report.name = Some(name.clone()).filter(|n| !n.is_empty());
        }
        self.frames.push(Frame {
            depth,
            collection,
            name,
            tests: count("tests"),
            failures: count("failures"),
            errors: count("errors"),
            skipped: count("skipped"),
            time,
            timestamp: attr(attrs, "timestamp").filter(|t| !t.is_empty()),
            cases: Vec::new(),
            has_child_suites: false,
            slot: self.report.suites.len(),
        });
    }

    fn end(&mut self) {
        self.open.pop();
        let depth = self.open.len();
        if let Some(skip_depth) = self.skipping {
            if skip_depth == depth {
                self.skipping = None;
            }
            return;
        }
        if let Some((sink, sink_depth)) = self.sink {
            if sink_depth == depth {
                self.sink = None;
                if sink == Sink::Text
                    && let Some(open) = &mut self.case
                {
                    open.case.text = capped(&open.text, MAX_TEXT_CHARS);
                    open.text.clear();
                }
            }
            return;
        }
        if self.case.as_ref().is_some_and(|open| open.depth == depth) {
            if let Some(open) = self.case.take() {
                let case = finish_case(open);
                if let Some(frame) = self.frames.last_mut() {
                    frame.cases.push(case);
                }
            }
            return;
        }
        if self.frames.last().is_some_and(|frame| frame.depth == depth)
            && let Some(frame) = self.frames.pop()
        {
            let own_time = frame.time;
            let time = self.close_suite(frame).or(own_time);
            self.add_top_level_time(time);
        }
    }

    /// The report's time is the root's, else the sum of the top-level suites' times
    /// (summing the flattened suites would count nested ones twice).
    fn add_top_level_time(&mut self, time: Option<f64>) {
        match self.frames.as_slice() {
            [] => self.report.time = self.report.time.or(time).or(self.children_time),
            [root] if root.collection => {
                self.children_time = match (self.children_time, time) {
                    (Some(a), Some(b)) => Some(a + b),
                    (known, None) | (None, known) => known,
                };
            }
            _ => {}
        }
    }

    /// Emits a closed suite (unless it only groups others) and returns its time.
    fn close_suite(&mut self, frame: Frame) -> Option<f64> {
        let suite = if !frame.cases.is_empty() {
            let count =
                |status: CaseStatus| frame.cases.iter().filter(|c| c.status == status).count();
            let case_time = frame
                .cases
                .iter()
                .filter_map(|c| c.time)
                .reduce(|a, b| a + b);
            JUnitSuite {
                tests: frame.cases.len(),
                failures: count(CaseStatus::Failed),
                errors: count(CaseStatus::Errored),
                skipped: count(CaseStatus::Skipped),
                time: frame.time.or(case_time),
                counts_from_attributes: false,
                cases: frame.cases,
                name: frame.name,
                timestamp: frame.timestamp,
            }
        } else if !frame.collection && !frame.has_child_suites {
            JUnitSuite {
                tests: frame.tests.unwrap_or(0),
                failures: frame.failures.unwrap_or(0),
                errors: frame.errors.unwrap_or(0),
                skipped: frame.skipped.unwrap_or(0),
                time: frame.time,
                counts_from_attributes: frame.tests.is_some(),
                cases: Vec::new(),
                name: frame.name,
                timestamp: frame.timestamp,
            }
        } else {
            // A parent whose counts are its children's sums: the children are reported.
            return None;
        };
        let time = suite.time;
        let slot = frame.slot.min(self.report.suites.len());
        self.report.suites.insert(slot, suite);
        time
    }

    fn text(&mut self, text: &str) {
        let (Some((sink, _)), Some(open)) = (self.sink, &mut self.case) else {
            return;
        };
        let buffer = match sink {
            Sink::Text => &mut open.text,
            Sink::Out => &mut open.out,
            Sink::Err => &mut open.err,
            Sink::Ignore => return,
        };
        if buffer.len() < BUFFER_LIMIT_BYTES {
            buffer.push_str(text);
        }
    }

    fn reference(&mut self, reference: &BytesRef<'_>) {
        let resolved = match reference.resolve_char_ref() {
            Ok(Some(c)) => c.to_string(),
            // An entity we cannot resolve is kept as written.
            Ok(None) | Err(_) => match resolve_predefined_entity(reference) {
                Some(text) => text.to_string(),
                None => format!("&{};", &**reference),
            },
        };
        self.text(&resolved);
    }

    fn finish(self, xml: &str) -> Result<JUnitReport, JUnitError> {
        if let Some(unclosed) = self.open.last() {
            let message = format!("the document ends inside <{unclosed}> (cut short?)");
            return Err(xml_error(xml, xml.len() as u64, &message));
        }
        if !self.seen_root {
            return Err(JUnitError::NoRoot);
        }
        Ok(self.report)
    }
}

/// Applies a child element of a `<testcase>` and says where its text goes.
fn case_child(case: &mut JUnitCase, name: &str, attrs: &[(String, String)]) -> Sink {
    let status = match name {
        "failure" => CaseStatus::Failed,
        "error" => CaseStatus::Errored,
        "skipped" => CaseStatus::Skipped,
        "system-out" => return Sink::Out,
        "system-err" => return Sink::Err,
        // properties, flakyFailure, rerunFailure, … and everything inside them.
        _ => return Sink::Ignore,
    };
    let replaces = match case.status {
        CaseStatus::Passed => true,
        CaseStatus::Skipped => status.is_failure(),
        CaseStatus::Failed | CaseStatus::Errored => false,
    };
    if !replaces {
        return Sink::Ignore;
    }
    case.status = status;
    case.message = attr(attrs, "message").and_then(|m| capped(&m, MAX_TEXT_CHARS));
    case.failure_type = attr(attrs, "type").filter(|t| !t.is_empty());
    case.text = None;
    Sink::Text
}

fn finish_case(open: OpenCase) -> JUnitCase {
    let mut case = open.case;
    case.attachments = attachments(&open.out)
        .chain(attachments(&open.err))
        .collect();
    case.system_out = capped(&open.out, MAX_OUTPUT_CHARS);
    case.system_err = capped(&open.err, MAX_OUTPUT_CHARS);
    case
}

/// A start tag's attributes as (local name, value), values unescaped. A value with an
/// entity we cannot resolve is kept raw.
fn attributes(start: &BytesStart<'_>) -> Result<Vec<(String, String)>, Problem> {
    start
        .attributes()
        .map(|attribute| {
            let attribute = attribute.map_err(|error| {
                Problem::Attribute(format!(
                    "bad attribute in <{}>: {error}",
                    start.local_name().into_inner()
                ))
            })?;
            let value = attribute
                .normalized_value_with(XmlVersion::Implicit1_0, 1, resolve_predefined_entity)
                .map_or_else(|_| attribute.value.to_string(), Cow::into_owned);
            Ok((attribute.key.local_name().into_inner().to_string(), value))
        })
        .collect()
}

fn attr(attrs: &[(String, String)], key: &str) -> Option<String> {
    attrs
        .iter()
        .find(|(name, _)| name == key)
        .map(|(_, value)| value.clone())
}
