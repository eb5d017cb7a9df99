//! Runs over real HTTP on a loopback socket with a temp data dir: start a command-only
//! workflow, follow its events over SSE to the end, reconnect with `Last-Event-ID`, read
//! its checkpoints and diff, answer a human gate; and the token and Host checks.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::{Value, json};
use support::live::{FLOW, LAUNCH, TOKEN, start_server};

const GATE: &str = r#"digraph Gate {
    start [shape=Mdiamond]; exit [shape=Msquare];
    ask [shape=hexagon, label="Ship it?"];
    ship [shape=parallelogram, script="echo shipped > shipped.txt"];
    start -> ask;
    ask -> ship [label="[Y] Yes"];
    ask -> exit [label="[N] No"];
    ship -> exit;
}"#;

fn seqs(events: &[Value]) -> Vec<u64> {
    events.iter().map(|e| e["seq"].as_u64().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_started_over_http_streams_its_events_and_reads_its_history() {
    let server = start_server().await;
    let started = server
        .ok(
            "start_run",
            json!({ "trust": true,
                    "workflow_path": server.flow("steps.dot", FLOW),
                    "work_dir": server.work.display().to_string(),
                    "labels": { "suite": "http" } }),
        )
        .await;
    let run = started["run_id"].as_str().unwrap().to_string();

    // Follow it to the end.
    let (all, ended) = server.events(&run, None, usize::MAX).await;
    assert!(ended, "the stream ended without its end event");
    let wanted: Vec<u64> = (1..=all.len() as u64).collect();
    assert_eq!(seqs(&all), wanted, "events lost or repeated");
    assert_eq!(all.last().unwrap()["event"], "run.completed");
    for node in ["one", "two", "three"] {
        assert!(
            all.iter()
                .any(|e| e["event"] == "stage.completed" && e["node_id"] == node),
            "no stage.completed for {node}"
        );
    }

    // Reconnect after the third event: the rest, nothing twice.
    let (first, ended) = server.events(&run, None, 3).await;
    assert!(!ended);
    assert_eq!(seqs(&first), [1, 2, 3]);
    let (rest, ended) = server.events(&run, Some(3), usize::MAX).await;
    assert!(ended);
    let joined: Vec<Value> = first.into_iter().chain(rest).collect();
    assert_eq!(joined, all);

    // Indexed (the host ingests a run it ran as soon as it ends), with its timeline.
    let runs = server
        .ok(
            "list_runs",
            json!({ "filter": { "labels": { "suite": "http" } } }),
        )
        .await;
    let items = runs["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{runs}");
    assert_eq!(items[0]["id"], run.as_str());
    assert_eq!(items[0]["status"], "success", "{runs}");
    assert_eq!(items[0]["event_count"], all.len());
    let others = server
        .ok(
            "list_runs",
            json!({ "filter": { "labels": { "suite": "other" } } }),
        )
        .await;
    assert_eq!(others["total"], 0, "{others}");
    let timeline = server.ok("run_timeline", json!({ "run_id": run })).await;
    let stages: Vec<&str> = timeline["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["node_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages,
        ["start", "one", "two", "three", "exit"],
        "{timeline}"
    );
    // The same events a page at a time from the index, in the envelope the stream hands out;
    // and a page from the moment a stage started begins with its `stage.started`.
    let mut paged: Vec<Value> = Vec::new();
    loop {
        let after = paged.last().map_or(0, |e| e["seq"].as_u64().unwrap());
        let page = server
            .ok(
                "run_events",
                json!({ "run_id": run, "after_seq": after, "limit": 4 }),
            )
            .await;
        let events = page["events"].as_array().unwrap();
        assert!(events.len() <= 4, "{page}");
        paged.extend(events.iter().cloned());
        if page["more"] == false {
            break;
        }
    }
    assert_eq!(paged, all, "the pages differ from the stream");
    let two = &timeline["stages"][2];
    let started = two["started_at"].as_str().unwrap();
    let since = server
        .ok(
            "run_events",
            json!({ "run_id": run, "since": started, "limit": 5 }),
        )
        .await;
    let page = since["events"].as_array().unwrap();
    let first = page[0]["seq"].as_u64().unwrap();
    let expected: Vec<&Value> = all
        .iter()
        .filter(|e| e["ts"].as_str().unwrap() >= started)
        .take(5)
        .collect();
    assert_eq!(page.iter().collect::<Vec<_>>(), expected, "{since}");
    assert!(
        page.iter()
            .any(|e| e["event"] == "stage.started" && e["node_id"] == "two"),
        "{since}"
    );
    assert!(first > 1 && since["more"] == true, "{since}");
    let record = server.ok("get_run", json!({ "run_id": &run[..10] })).await;
    assert_eq!(record["id"], run.as_str());
    let checkpoints = server.ok("run_checkpoints", json!({ "run_id": run })).await;
    let nodes: Vec<&str> = checkpoints
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["node_id"].as_str().unwrap())
        .collect();
    assert_eq!(nodes, ["start", "one", "two", "three", "exit"]);
    let files = server
        .ok("checkpoint_files", json!({ "run_id": run, "at": "two" }))
        .await;
    let paths: Vec<&str> = files
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["README.md", "one.txt", "two.txt"]);
    let file = server
        .ok(
            "checkpoint_file",
            json!({ "run_id": run, "at": "one", "path": "one.txt" }),
        )
        .await;
    assert_eq!(file["text"], "one\n");
    let diff = server
        .ok(
            "checkpoint_diff",
            json!({ "run_id": run, "from": "one", "to": "three" }),
        )
        .await;
    let changed: Vec<&str> = diff["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(changed, ["one.txt", "three.txt", "two.txt"]);

    // Errors carry codes, not just text.
    let (status, error) = server
        .call("checkpoint_files", json!({ "run_id": run, "at": "nosuch" }))
        .await;
    assert_eq!(status, 404, "{error}");
    assert_eq!(error["code"], "not_found");
    let (status, error) = server.call("cancel_run", json!({ "run_id": run })).await;
    assert_eq!(status, 409, "{error}");
    assert_eq!(error["code"], "not_running");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_gate_is_answered_over_http() {
    let server = start_server().await;
    let started = server
        .ok(
            "start_run",
            json!({ "trust": true,
                    "workflow_path": server.flow("gate.dot", GATE),
                    "work_dir": server.work.display().to_string(),
                    "checkpoints": "none" }),
        )
        .await;
    let run = started["run_id"].as_str().unwrap().to_string();
    let mut gates = Value::Null;
    for _ in 0..200 {
        gates = server.ok("pending_gates", json!({ "run_id": run })).await;
        if !gates.as_array().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let gate = &gates[0];
    assert_eq!(gate["node_id"], "ask", "{gates}");
    assert_eq!(gate["text"], "Ship it?");
    let keys: Vec<&str> = gate["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["Y", "N"]);
    let (status, error) = server
        .call(
            "answer_gate",
            json!({ "run_id": run, "question_id": gate["question_id"], "answer": "Maybe" }),
        )
        .await;
    assert_eq!(status, 422, "{error}");
    server
        .ok(
            "answer_gate",
            json!({ "run_id": run, "question_id": gate["question_id"], "answer": "Y" }),
        )
        .await;
    let (events, ended) = server.events(&run, None, usize::MAX).await;
    assert!(ended);
    assert_eq!(events.last().unwrap()["event"], "run.completed");
    assert_eq!(
        std::fs::read_to_string(server.work.join("shipped.txt")).unwrap(),
        "shipped\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_without_the_token_or_with_a_foreign_host_are_refused() {
    let server = start_server().await;
    let url = format!("{}/api/list_runs", server.base);
    let plain = reqwest::Client::new();

    let response = plain.post(&url).json(&json!({})).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 401);
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["code"], "unauthorized");

    let response = plain
        .post(&url)
        .bearer_auth("0123456789abcdef0123456789abcdeX")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);

    let events = format!("{}/api/events?run=x", server.base);
    assert_eq!(
        plain.get(&events).send().await.unwrap().status().as_u16(),
        401
    );

    // The access token is never taken from a URL; the one-time launch token is, once, and
    // leaves a cookie that works from then on (see security_http.rs for the rest).
    let response = plain
        .post(format!("{url}?token={TOKEN}"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);
    let no_redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let response = no_redirect
        .get(format!("{}/?launch={LAUNCH}", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 303);
    let cookie = response
        .headers()
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().unwrap();
    let response = plain
        .post(&url)
        .header("Cookie", pair)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);

    // A foreign Host is refused even with the token (DNS rebinding).
    let response = plain
        .post(&url)
        .bearer_auth(TOKEN)
        .header("Host", "evil.example:80")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 421);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_runs_started_at_once_all_complete_and_are_indexed() {
    let server = start_server().await;
    let flow = server.flow(
        "quick.dot",
        r#"digraph Quick {
            start [shape=Mdiamond]; exit [shape=Msquare];
            work [shape=parallelogram, script="echo $HEDDLE_RUN_ID > /dev/null; sleep 0.1"];
            start -> work -> exit;
        }"#,
    );
    let starts = (0..20).map(|n| {
        server.ok(
            "start_run",
            json!({ "trust": true,
                    "workflow_path": flow, "checkpoints": "none",
                    "work_dir": server.work.display().to_string(),
                    "labels": { "batch": "twenty", "n": n.to_string() } }),
        )
    });
    let started = futures_util::future::join_all(starts).await;
    let ids: std::collections::BTreeSet<String> = started
        .iter()
        .map(|s| s["run_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 20);
    for id in &ids {
        let (events, ended) = server.events(id, None, usize::MAX).await;
        assert!(ended);
        assert_eq!(events.last().unwrap()["event"], "run.completed", "{id}");
    }
    let filter = json!({ "filter": { "labels": { "batch": "twenty" } }, "page": { "limit": 50 } });
    let mut page = server.ok("list_runs", filter.clone()).await;
    for _ in 0..100 {
        let done = page["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["status"] == "success")
            .count();
        if done == 20 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        page = server.ok("list_runs", filter.clone()).await;
    }
    assert_eq!(page["total"], 20, "{page}");
    let listed: std::collections::BTreeSet<String> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["status"], "success", "{r}");
            assert_eq!(r["stage_count"], 3, "{r}");
            r["id"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(listed, ids);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_run_changes_stream_announces_a_run_until_it_ends() {
    let server = start_server().await;
    let mut response = server
        .client
        .get(format!("{}/api/run_changes", server.base))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let started = server
        .ok(
            "start_run",
            json!({ "trust": true,
                    "workflow_path": server.flow("steps.dot", FLOW),
                    "work_dir": server.work.display().to_string(),
                    "checkpoints": "none" }),
        )
        .await;
    let run = started["run_id"].as_str().unwrap().to_string();
    let mut buffer = String::new();
    let mut statuses = Vec::new();
    let read = async {
        while !statuses.iter().any(|s| s == "success") {
            let chunk = response.chunk().await.unwrap().expect("the stream ended");
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                for data in block.lines().filter_map(|l| l.strip_prefix("data:")) {
                    let change: Value = serde_json::from_str(data.trim()).unwrap();
                    if change["run_id"] == run.as_str() {
                        statuses.push(change["status"].as_str().unwrap_or("").to_string());
                    }
                }
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(30), read)
        .await
        .unwrap_or_else(|_| panic!("no success announced for {run}: {statuses:?}"));
    assert_eq!(statuses.last().map(String::as_str), Some("success"));
}
