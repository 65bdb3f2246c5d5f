//! `--timeline FILE.svg`: the [`Timeline`] drawn as an SVG picture. Threads are lanes (top
//! to bottom in order of appearance), virtual time runs left to right: the gap between two
//! events grows with the time between them, and every drawn event also takes a small step
//! of its own, so that what happens at one virtual instant (most of an async program) is
//! spread out in order instead of piling up. The axis labels give the virtual time.
//! Work items are pale blue bars, the stretches a method runs after resuming green bars
//! inside them, arrows join each suspension to its resumption; AsyncLocal values are
//! written where they are set, context switches as grey ticks, pool thread injections as
//! red triangles, the pool's goal changes in red on the thread that made them.

use std::fmt::Write;

use hashbrown::HashMap;

use super::event::{Event, Stamped};
use super::text::format_time;
use super::timeline::{goal_label, suspension_label, BarKind, MarkKind, Timeline};
use crate::runtime::scheduler::TICKS_PER_MS;

const LABEL_WIDTH: f64 = 190.0;
const TOP: f64 = 46.0;
const LANE_HEIGHT: f64 = 44.0;
const RIGHT_MARGIN: f64 = 220.0;
/// How far apart two drawn events at the same virtual instant are: the steps share about
/// `STEP_WIDTH` pixels, each between `MIN_STEP` and `MAX_STEP`.
const STEP_WIDTH: f64 = 1100.0;
const MIN_STEP: f64 = 1.0;
const MAX_STEP: f64 = 9.0;
/// The width virtual time may take at most, and at most this many pixels per ms.
const TIME_WIDTH: f64 = 1100.0;
const MAX_PX_PER_MS: f64 = 40.0;
/// Axis labels closer than this to the previous one are left out.
const AXIS_LABEL_GAP: f64 = 80.0;
/// About the width of one character of a mark's label.
const LABEL_CHAR_WIDTH: f64 = 6.0;

/// The whole SVG document.
pub fn render(events: &[Stamped]) -> String {
    let timeline = Timeline::build(events);
    let layout = layout(events);
    let xs = &layout.xs;
    let width = xs.last().copied().unwrap_or(LABEL_WIDTH) + RIGHT_MARGIN;
    let height = TOP + LANE_HEIGHT * timeline.lanes.len() as f64 + 20.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="11">"#
    );
    out.push_str(DEFS);
    let _ = writeln!(out, r#"<rect width="{width:.0}" height="{height:.0}" fill="white"/>"#);
    draw_axis(&mut out, events, xs, height);
    draw_lanes(&mut out, &timeline, xs, width);
    draw_bars(&mut out, &timeline, xs);
    draw_marks(&mut out, &timeline, &layout);
    draw_arrows(&mut out, &timeline, xs);
    out.push_str("</svg>\n");
    out
}

const DEFS: &str = r##"<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#7b3fb0"/></marker></defs>
"##;

/// Where each event is drawn, and whether its label is.
struct Layout {
    xs: Vec<f64>,
    labelled: Vec<bool>,
}

/// The x of every event: each drawn event a step after the previous one (smaller steps
/// for busier runs), plus the time between them at a scale that fits the run into about
/// `TIME_WIDTH` pixels. A label that must be read (an AsyncLocal value, a context, a
/// suspension, an injection) moves its event past the end of the lane's previous label, as
/// does a resumption; any other label (the pool's goal) is drawn only where there is room.
fn layout(events: &[Stamped]) -> Layout {
    let end_ms = events.last().map_or(0.0, |e| e.time as f64 / TICKS_PER_MS as f64);
    let px_per_ms = if end_ms > 0.0 { (TIME_WIDTH / end_ms).min(MAX_PX_PER_MS) } else { MAX_PX_PER_MS };
    let drawn = events.iter().filter(|e| is_drawn(&e.event)).count().max(1);
    let step = (STEP_WIDTH / drawn as f64).clamp(MIN_STEP, MAX_STEP);
    let mut xs = Vec::with_capacity(events.len());
    let mut labelled = Vec::with_capacity(events.len());
    let mut label_ends: HashMap<i32, f64> = HashMap::new();
    let mut x = LABEL_WIDTH + 10.0;
    let mut previous_time = 0;
    for e in events {
        x += (e.time - previous_time) as f64 / TICKS_PER_MS as f64 * px_per_ms;
        if is_drawn(&e.event) {
            x += step;
        }
        let mut shown = false;
        match label_of(e) {
            Some(label) => {
                let free_from = label_ends.get(&label.lane).copied().unwrap_or(0.0);
                if label.must_show {
                    x = x.max(free_from);
                }
                shown = x >= free_from;
                if shown {
                    label_ends.insert(label.lane, x + label.width);
                }
            }
            None if matches!(e.event, Event::Resumed { .. }) => x = x.max(label_ends.get(&e.thread).copied().unwrap_or(0.0)),
            None => {}
        }
        previous_time = e.time;
        xs.push(x);
        labelled.push(shown);
    }
    Layout { xs, labelled }
}

/// The label an event's mark carries: on which lane, about how wide, and whether it must
/// be shown.
struct Label {
    lane: i32,
    width: f64,
    must_show: bool,
}

fn label_of(e: &Stamped) -> Option<Label> {
    let (lane, text, must_show) = match &e.event {
        Event::ThreadInjected { thread, reason } => (*thread, format!("injected: {reason}"), true),
        Event::ThreadGoalChanged { goal, reason } => (e.thread, goal_label(*goal, *reason), false),
        Event::AsyncLocalSet { local, value, .. } => (e.thread, format!("{local}={value}"), true),
        Event::ContextSwitched { to, .. } => (e.thread, to.clone(), true),
        Event::Suspended { suspension, site, .. } => (e.thread, suspension_label(*suspension, site), true),
        _ => return None,
    };
    Some(Label { lane, width: text.chars().count() as f64 * LABEL_CHAR_WIDTH + 6.0, must_show })
}

/// Events the picture shows (queueing is only in the text trace).
fn is_drawn(event: &Event) -> bool {
    !matches!(event, Event::WorkItemQueued { .. })
}

fn lane_y(index: usize) -> f64 {
    TOP + LANE_HEIGHT * index as f64
}

fn draw_axis(out: &mut String, events: &[Stamped], xs: &[f64], height: f64) {
    let _ = writeln!(out, r#"<text x="8" y="18" font-weight="bold">virtual time</text>"#);
    let mut last_x = f64::NEG_INFINITY;
    let mut last_time = -1;
    for (e, &x) in events.iter().zip(xs) {
        if e.time == last_time || x - last_x < AXIS_LABEL_GAP {
            continue;
        }
        let label = axis_time(e.time);
        let _ = writeln!(out, r##"<line x1="{x:.1}" y1="26" x2="{x:.1}" y2="{:.1}" stroke="#e4e4e4"/>"##, height - 10.0);
        let _ = writeln!(out, r##"<text x="{x:.1}" y="22" text-anchor="middle" fill="#555">{}</text>"##, escape(&label));
        last_x = x;
        last_time = e.time;
    }
}

/// `0 ms`, `0.05 ms`, `501.05 ms`: ticks as milliseconds without trailing zeros.
fn axis_time(ticks: i64) -> String {
    let fraction = format!("{:04}", ticks % TICKS_PER_MS);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        format!("{} ms", ticks / TICKS_PER_MS)
    } else {
        format!("{}.{fraction} ms", ticks / TICKS_PER_MS)
    }
}

fn draw_lanes(out: &mut String, timeline: &Timeline, xs: &[f64], width: f64) {
    let end = width - RIGHT_MARGIN + 10.0;
    for (i, lane) in timeline.lanes.iter().enumerate() {
        let y = lane_y(i) + LANE_HEIGHT / 2.0;
        let start = xs.get(lane.start_seq).copied().unwrap_or(LABEL_WIDTH);
        let stop = lane.end_seq.and_then(|s| xs.get(s).copied()).unwrap_or(end);
        let _ = writeln!(out, r#"<g class="lane" data-thread="{}">"#, lane.thread);
        let _ = writeln!(out, r##"<text x="8" y="{:.1}" fill="#222">{}</text>"##, y + 4.0, escape(&lane.label));
        let _ = writeln!(out, r##"<line x1="{start:.1}" y1="{y:.1}" x2="{stop:.1}" y2="{y:.1}" stroke="#999" stroke-width="1"/>"##);
        if lane.end_seq.is_some() {
            let _ = writeln!(out, r##"<line x1="{stop:.1}" y1="{:.1}" x2="{stop:.1}" y2="{:.1}" stroke="#999"/>"##, y - 5.0, y + 5.0);
        }
        out.push_str("</g>\n");
    }
}

/// Work items first, the method segments inside them on top.
fn draw_bars(out: &mut String, timeline: &Timeline, xs: &[f64]) {
    let items = timeline.bars.iter().filter(|b| b.kind == BarKind::WorkItem);
    let segments = timeline.bars.iter().filter(|b| b.kind == BarKind::Segment);
    for bar in items.chain(segments) {
        let Some(lane) = timeline.lane_index(bar.thread) else { continue };
        let (x1, x2) = (xs[bar.start_seq], xs[bar.end_seq]);
        let w = (x2 - x1).max(3.0);
        let mid = lane_y(lane) + LANE_HEIGHT / 2.0;
        let (y, h, fill, stroke, class) = match bar.kind {
            BarKind::WorkItem => (mid - 10.0, 20.0, "#d6e6f7", "#4a7fb5", "work-item"),
            BarKind::Segment => (mid, 10.0, "#8fd18f", "#2f7d32", "segment"),
        };
        let title = format!("{} ({} - {})", bar.label, format_time(bar.start_time).trim(), format_time(bar.end_time).trim());
        let _ = writeln!(
            out,
            r#"<rect class="{class}" x="{x1:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="2" fill="{fill}" stroke="{stroke}"><title>{}</title></rect>"#,
            escape(&title)
        );
        if w > LABEL_CHAR_WIDTH * bar.label.chars().count() as f64 {
            let (dy, color) = if bar.kind == BarKind::WorkItem { (8.0, "#2a4d73") } else { (8.0, "#1b5e20") };
            let _ = writeln!(out, r##"<text x="{:.1}" y="{:.1}" font-size="9" fill="{color}">{}</text>"##, x1 + 3.0, y + dy, escape(&bar.label));
        }
    }
}

fn draw_marks(out: &mut String, timeline: &Timeline, layout: &Layout) {
    for mark in &timeline.marks {
        let Some(lane) = timeline.lane_index(mark.thread) else { continue };
        let x = layout.xs[mark.seq];
        let mid = lane_y(lane) + LANE_HEIGHT / 2.0;
        let label = if layout.labelled[mark.seq] { escape(&mark.label) } else { String::new() };
        let _ = match mark.kind {
            MarkKind::Suspended => writeln!(
                out,
                r##"<circle class="suspension" cx="{x:.1}" cy="{mid:.1}" r="3.5" fill="#7b3fb0"/><text x="{:.1}" y="{:.1}" font-size="9" fill="#7b3fb0">{label}</text>"##,
                x + 3.0,
                mid + 19.0
            ),
            MarkKind::Injected => writeln!(
                out,
                r##"<path class="injection" d="M{x:.1},{:.1} l-5,-9 h10 z" fill="#d62728"><title>{label}</title></path><text x="{:.1}" y="{:.1}" font-size="9" fill="#d62728">{label}</text>"##,
                mid - 10.0,
                x + 6.0,
                mid - 11.0
            ),
            MarkKind::Goal => writeln!(
                out,
                r##"<line class="goal" x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#d62728" stroke-width="2"><title>{}</title></line><text x="{:.1}" y="{:.1}" font-size="9" fill="#d62728">{label}</text>"##,
                mid - 6.0,
                mid + 6.0,
                escape(&mark.label),
                x + 3.0,
                mid - 6.0
            ),
            MarkKind::AsyncLocal => writeln!(
                out,
                r##"<path class="asynclocal" d="M{x:.1},{:.1} l4,4 l-4,4 l-4,-4 z" fill="#e67e00"/><text x="{:.1}" y="{:.1}" font-size="9" font-weight="bold" fill="#b35f00">{label}</text>"##,
                mid - 4.0,
                x + 3.0,
                mid - 8.0
            ),
            MarkKind::Context => writeln!(
                out,
                r##"<line class="context" x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#777" stroke-width="2"><title>context {label}</title></line><text x="{:.1}" y="{:.1}" font-size="9" fill="#777">{label}</text>"##,
                mid - 7.0,
                mid + 7.0,
                x + 2.0,
                mid + 19.0
            ),
            MarkKind::Timer => writeln!(out, r##"<circle class="timer" cx="{x:.1}" cy="{mid:.1}" r="3" fill="#f0b400"><title>{label}</title></circle>"##),
        };
    }
}

fn draw_arrows(out: &mut String, timeline: &Timeline, xs: &[f64]) {
    for arrow in &timeline.arrows {
        let (Some(from), Some(to)) = (timeline.lane_index(arrow.from_thread), timeline.lane_index(arrow.to_thread)) else { continue };
        let (x1, y1) = (xs[arrow.from_seq], lane_y(from) + LANE_HEIGHT / 2.0);
        let (x2, y2) = (xs[arrow.to_seq], lane_y(to) + LANE_HEIGHT / 2.0);
        let bend = if from == to { -LANE_HEIGHT * 0.6 } else { 0.0 };
        let (cx, cy) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0 + bend);
        let _ = writeln!(
            out,
            r##"<path class="resumption" d="M{x1:.1},{y1:.1} Q{cx:.1},{cy:.1} {x2:.1},{y2:.1}" fill="none" stroke="#7b3fb0" stroke-width="1.3" marker-end="url(#head)"><title>{}</title></path>"##,
            escape(&arrow.label)
        );
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
