//! `--timeline FILE.json`: the events in Chrome's trace event format (chrome://tracing,
//! ui.perfetto.dev): one track per managed thread, work items and running method segments
//! as complete ("X") events, suspensions and resumptions joined by flow arrows, the rest as
//! instant events. Timestamps are virtual microseconds.

use std::fmt::Write;

use super::event::{Event, Stamped};
use super::timeline::Timeline;

/// The whole JSON document.
pub fn render(events: &[Stamped]) -> String {
    let timeline = Timeline::build(events);
    let mut records: Vec<String> = Vec::new();
    for lane in &timeline.lanes {
        records.push(format!(r#"{{"name":"thread_name","ph":"M","pid":1,"tid":{},"args":{{"name":{}}}}}"#, lane.thread, json_string(&lane.label)));
    }
    for bar in &timeline.bars {
        records.push(format!(
            r#"{{"name":{},"cat":"{}","ph":"X","pid":1,"tid":{},"ts":{},"dur":{}}}"#,
            json_string(&bar.label),
            bar.kind.category(),
            bar.thread,
            micros(bar.start_time),
            micros(bar.end_time - bar.start_time)
        ));
    }
    for (n, arrow) in timeline.arrows.iter().enumerate() {
        let name = json_string(&arrow.label);
        records.push(format!(r#"{{"name":{name},"cat":"await","ph":"s","id":{n},"pid":1,"tid":{},"ts":{}}}"#, arrow.from_thread, micros(arrow.from_time)));
        records.push(format!(r#"{{"name":{name},"cat":"await","ph":"f","bp":"e","id":{n},"pid":1,"tid":{},"ts":{}}}"#, arrow.to_thread, micros(arrow.to_time)));
    }
    for e in events.iter().filter(|e| is_instant(&e.event)) {
        records.push(format!(r#"{{"name":{},"ph":"i","s":"t","pid":1,"tid":{},"ts":{}}}"#, json_string(&e.event.to_string()), e.thread, micros(e.time)));
    }
    let mut out = String::from("{\"traceEvents\":[\n");
    out.push_str(&records.join(",\n"));
    out.push_str("\n],\"displayTimeUnit\":\"ms\"}\n");
    out
}

/// Events with no duration of their own.
fn is_instant(event: &Event) -> bool {
    matches!(
        event,
        Event::ThreadInjected { .. }
            | Event::ThreadGoalChanged { .. }
            | Event::TimerFired
            | Event::ContextSwitched { .. }
            | Event::AsyncLocalSet { .. }
            | Event::WorkItemQueued { .. }
    )
}

/// Ticks (100 ns) as microseconds with one decimal.
fn micros(ticks: i64) -> String {
    format!("{}.{}", ticks / 10, ticks % 10)
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
