//! Terminal prompt: prints the question and its choices, reads one line per answer.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll, ready};

use async_trait::async_trait;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, BufReader, ReadBuf};
use tokio::sync::mpsc;

use super::accelerator::{default_answer, display_label};
use super::{Answer, InterviewError, Interviewer, Question, resolve_answer};

/// How many times a gate asks again after an empty or invalid line before giving up.
const MAX_REPROMPTS: usize = 3;

/// Asks on a terminal: writes the question to `output`, reads answers from `input`.
///
/// An empty line takes the default choice; a line naming a choice (key, label, target id or
/// number) takes it; any other line is a freeform answer when the gate accepts one.
pub struct TerminalInterviewer<R, W> {
    input: tokio::sync::Mutex<R>,
    output: Mutex<W>,
    /// Drop lines typed before a question is shown (interactive terminals only: piped
    /// answers are meant to be read in order).
    discard_typed_ahead: bool,
}

impl<R, W> std::fmt::Debug for TerminalInterviewer<R, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TerminalInterviewer")
            .finish_non_exhaustive()
    }
}

impl TerminalInterviewer<BufReader<StdinReader>, io::Stderr> {
    /// Reads from stdin and writes to stderr. Stdin is first read when a gate asks.
    pub fn stdio() -> Self {
        use std::io::IsTerminal;
        let mut interviewer =
            TerminalInterviewer::new(BufReader::new(StdinReader::default()), io::stderr());
        interviewer.discard_typed_ahead = io::stdin().is_terminal();
        interviewer
    }
}

impl<R, W> TerminalInterviewer<R, W>
where
    R: AsyncBufRead + Unpin + Send,
    W: Write + Send,
{
    /// Reads answers from `input`, writes questions to `output`.
    pub fn new(input: R, output: W) -> Self {
        TerminalInterviewer {
            input: tokio::sync::Mutex::new(input),
            output: Mutex::new(output),
            discard_typed_ahead: false,
        }
    }

    /// The input and output back.
    pub fn into_parts(self) -> (R, W) {
        (
            self.input.into_inner(),
            self.output
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// Writes `text` and flushes; a broken terminal is not the run's problem.
    fn say(&self, text: &str) {
        let mut output = self.output.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = output.write_all(text.as_bytes());
        let _ = output.flush();
    }
}

/// The question as printed.
fn render(question: &Question) -> String {
    let default = default_answer(question);
    let mut text = format!("\n? {}  (gate `{}`)\n", question.text, question.node_id);
    for choice in &question.choices {
        let mark = match &default {
            Some(d) if d.selected == choice.key && d.target == choice.target => "  (default)",
            _ => "",
        };
        let _ = writeln!(
            text,
            "  [{}] {} -> {}{mark}",
            choice.key,
            display_label(choice),
            choice.target
        );
    }
    let how = if question.choices.is_empty() {
        "Type your answer"
    } else if question.allow_freeform {
        "Type a key, label or number, or any other text as a freeform answer"
    } else {
        "Type a key, label or number"
    };
    match &default {
        Some(d) => {
            let _ = writeln!(text, "{how}; an empty line takes [{}].", d.selected);
        }
        None => {
            let _ = writeln!(text, "{how}.");
        }
    }
    text
}

#[async_trait]
impl<R, W> Interviewer for TerminalInterviewer<R, W>
where
    R: AsyncBufRead + Unpin + Send,
    W: Write + Send,
{
    async fn ask(&self, question: &Question) -> Result<Answer, InterviewError> {
        let mut input = self.input.lock().await;
        if self.discard_typed_ahead {
            // A key pressed while a command ran must not answer a question not yet shown.
            while let Ok(Ok(buffered)) =
                tokio::time::timeout(std::time::Duration::ZERO, input.fill_buf()).await
            {
                let n = buffered.len();
                if n == 0 {
                    break;
                }
                input.consume(n);
            }
        }
        self.say(&render(question));
        let default = default_answer(question);
        let mut reprompts = 0;
        loop {
            self.say("> ");
            let mut line = String::new();
            let read = input
                .read_line(&mut line)
                .await
                .map_err(|e| InterviewError::Closed(format!("reading stdin: {e}")))?;
            if read == 0 {
                self.say("\n");
                return Err(InterviewError::Closed("stdin closed".into()));
            }
            let text = line.trim();
            let problem = if text.is_empty() {
                if let Some(default) = &default {
                    return Ok(Answer::Choice(default.selected.clone()));
                }
                if question.choices.is_empty() {
                    "please type an answer".to_string()
                } else {
                    "please choose one of the choices above".to_string()
                }
            } else {
                let choice = Answer::Choice(text.to_string());
                match resolve_answer(question, &choice) {
                    Ok(_) => return Ok(choice),
                    Err(_) if question.allow_freeform => {
                        return Ok(Answer::Freeform(text.to_string()));
                    }
                    Err(error) => error,
                }
            };
            reprompts += 1;
            if reprompts > MAX_REPROMPTS {
                self.say("giving up on this question\n");
                return Err(InterviewError::Closed(format!(
                    "no valid answer after {} tries",
                    MAX_REPROMPTS + 1
                )));
            }
            self.say(&format!("{problem}\n"));
        }
    }
}

/// Standard input as an async reader: a thread, started on the first read, reads lines
/// and hands them over, so waiting for an answer never blocks the runtime.
#[derive(Debug, Default)]
pub struct StdinReader {
    lines: Option<mpsc::Receiver<io::Result<Vec<u8>>>>,
    buffer: Vec<u8>,
    position: usize,
    done: bool,
}

impl StdinReader {
    fn start() -> mpsc::Receiver<io::Result<Vec<u8>>> {
        let (sender, receiver) = mpsc::channel(1);
        // If the thread cannot start, the sender is dropped and the reader sees end of input.
        let _ = std::thread::Builder::new()
            .name("heddle-stdin".into())
            .spawn(move || {
                let stdin = io::stdin();
                loop {
                    let mut line = Vec::new();
                    match stdin.lock().read_until(b'\n', &mut line) {
                        Ok(0) => break,
                        Ok(_) => {
                            if sender.blocking_send(Ok(line)).is_err() {
                                break;
                            }
                        }
                        Err(error) => {
                            let _ = sender.blocking_send(Err(error));
                            break;
                        }
                    }
                }
            });
        receiver
    }
}

impl AsyncRead for StdinReader {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.position < this.buffer.len() {
                let rest = &this.buffer[this.position..];
                let n = rest.len().min(buf.remaining());
                buf.put_slice(&rest[..n]);
                this.position += n;
                return Poll::Ready(Ok(()));
            }
            if this.done {
                return Poll::Ready(Ok(()));
            }
            let lines = this.lines.get_or_insert_with(StdinReader::start);
            match ready!(lines.poll_recv(cx)) {
                Some(Ok(line)) => {
                    this.buffer = line;
                    this.position = 0;
                }
                Some(Err(error)) => {
                    this.done = true;
                    return Poll::Ready(Err(error));
                }
                None => this.done = true,
            }
        }
    }
}
