//! Green threads on a virtual clock. Every managed thread (main, `new Thread`, pool
//! workers, the timer thread) is a [`ThreadState`] here; one runs at a time, in the VM's
//! `thread` field, until it finishes, parks, or spends its fuel. Time is virtual: it only
//! moves when no thread can run, jumping to the next timeout, so `Thread.Sleep(1000)`
//! takes no real time and every run of a program interleaves the same way.
//!
//! Parking follows `LockSupport`: `Park` consumes a permit or blocks until `Unpark` (or its
//! timeout) makes the thread runnable again; the parked call then completes with the value
//! the waker supplies. Everything else (locks, events, the thread pool, timers, tasks) is
//! built on this in cs-lite.
//!
//! Work takes virtual time in three places only, so that thread-pool experiments come out
//! as on a real machine (see `../shared/reference/threadpool-model.md`, section 12): a
//! started thread runs its first instruction [`THREAD_START_TICKS`] later, a thread that
//! spends its fuel (a compute-bound loop) has used a CPU for [`SLICE_TICKS`], and the first
//! call of a user method waits for the JIT (`runtime/jit_cost.rs`). Slices and compilations queue
//! for the `--cpus` virtual processors, and their total is the process CPU time the thread
//! pool's gate thread reads.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::heap::GcRef;
use super::numerics::NumberFormat;
use super::thread::{ThreadState, FUEL_PER_SLICE};
use super::value::Value;
use crate::bytecode::Reg;

/// How a thread's time slice ended.
pub enum SliceEnd {
    /// Its entry frame returned this value: the thread is done.
    Finished(Value),
    /// It parked, or its fuel ran out (it stays runnable).
    Parked,
    Preempted,
    /// An exception escaped the thread.
    Unhandled(Value),
    Exit(i32),
    Fatal(String),
    Terminated(Termination),
}

/// How a program ends when it hits a limit no handler can catch.
#[derive(Debug)]
pub enum Termination {
    /// The call stack reached [`crate::runtime::thread::MAX_FRAMES`]: .NET's report of it.
    StackOverflow(String),
    /// `--max-steps` was reached after this many loop iterations.
    StepBudgetSpent(u64),
}

/// Ticks (100 ns) per millisecond, as `TimeSpan` and `Stopwatch` count.
pub const TICKS_PER_MS: i64 = 10_000;

/// From `Thread.Start` to the new thread's first instruction: 50 µs.
pub const THREAD_START_TICKS: i64 = 500;

/// The CPU time a slice of fuel (10 000 loop iterations) stands for: 1 ms.
pub const SLICE_TICKS: i64 = TICKS_PER_MS;

/// The managed id the first thread created after `Main` starts gets (.NET reserves 2 and 3
/// for the finalizer and tiered-compilation threads).
pub const FIRST_USER_THREAD_ID: i32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Created, not started.
    Unstarted,
    /// Waiting in the run queue or running.
    Runnable,
    /// Blocked in `Park` until unparked or (if `interruptible` is false, only) its timeout.
    Parked {
        interruptible: bool,
    },
    Finished,
}

/// One green thread.
pub struct ManagedThread {
    /// Its execution state while it is not running (the running one's is `Vm::thread`).
    pub state: ThreadState,
    /// The `System.Threading.Thread` object, once anyone asked for it.
    pub object: Option<GcRef>,
    pub id: i32,
    pub status: Status,
    /// An `Unpark` that arrived before `Park`.
    pub permit: bool,
    pub background: bool,
    /// The register of the call that parked, which receives the waker's value.
    pub parked_dst: Option<Reg>,
    /// Bumped on every park, so a stale timeout does not wake a later park.
    pub park_generation: u64,
    /// Threads blocked in `Join` on this one.
    pub joiners: Vec<usize>,
    /// The number formats of the thread's `CultureInfo.CurrentCulture` (CoreLib's
    /// thread-static culture cache, kept up to date by the culture's AsyncLocal handler);
    /// `None` is the default culture, invariant.
    pub culture: Option<&'static NumberFormat>,
}

impl ManagedThread {
    pub fn new(id: i32, background: bool) -> ManagedThread {
        ManagedThread {
            state: ThreadState::default(),
            object: None,
            id,
            status: Status::Unstarted,
            permit: false,
            background,
            parked_dst: None,
            park_generation: 0,
            joiners: Vec::new(),
            culture: None,
        }
    }
}

/// A timeout: wake `thread` at `due` if it is still in park number `generation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Timeout {
    due: i64,
    seq: u64,
    thread: usize,
    generation: u64,
}

pub struct Scheduler {
    pub threads: Vec<ManagedThread>,
    /// The running thread's index in `threads`.
    pub current: usize,
    run_queue: VecDeque<usize>,
    /// Virtual time in ticks since the program started.
    pub now: i64,
    timeouts: BinaryHeap<Reverse<Timeout>>,
    seq: u64,
    next_id: i32,
    /// `--seed`: 0 runs threads in FIFO order; anything else picks among the runnable
    /// ones with this generator, reproducibly.
    rng: u64,
    /// A seed other than 0 explores schedules: besides the random pick, each slice gets a
    /// random length and user code may also be preempted before a shared store or a call
    /// (`Function::chaos_points`), so that races show (`vm run --explore N`).
    chaos: bool,
    /// The fuel the running slice started with, under `chaos`.
    chaos_slice: u64,
    /// The generator library code draws from (`Scheduler.NextRandom`: where a thread-pool
    /// worker starts stealing, hill climbing's sample intervals), seeded by `--seed`.
    library_rng: u64,
    /// When each virtual processor finishes the slices queued on it.
    cpu_free_at: Vec<i64>,
    /// CPU time used by all threads so far (ticks).
    pub cpu_time: i64,
}

impl Scheduler {
    pub fn new(seed: u64, cpus: usize) -> Scheduler {
        let mut main = ManagedThread::new(1, false);
        main.status = Status::Runnable;
        Scheduler {
            threads: vec![main],
            current: 0,
            run_queue: VecDeque::new(),
            now: 0,
            timeouts: BinaryHeap::new(),
            seq: 0,
            next_id: FIRST_USER_THREAD_ID,
            rng: seed,
            chaos: seed != 0,
            chaos_slice: FUEL_PER_SLICE,
            library_rng: splitmix64(seed),
            cpu_free_at: vec![0; cpus.max(1)],
            cpu_time: 0,
        }
    }

    /// A new unstarted thread; returns its index.
    pub fn create(&mut self, background: bool) -> usize {
        let id = self.next_id;
        self.next_id += 1;
        self.threads.push(ManagedThread::new(id, background));
        self.threads.len() - 1
    }

    pub fn make_runnable(&mut self, t: usize) {
        self.threads[t].status = Status::Runnable;
        self.run_queue.push_back(t);
    }

    /// Makes `t` runnable `ticks` from now: it waits as a non-interruptible park whose
    /// timeout ends it (an `Unpark` meanwhile only leaves a permit).
    pub fn make_runnable_after(&mut self, t: usize, ticks: i64) {
        let th = &mut self.threads[t];
        th.status = Status::Parked { interruptible: false };
        th.parked_dst = None;
        th.park_generation += 1;
        self.seq += 1;
        let generation = th.park_generation;
        self.timeouts.push(Reverse(Timeout { due: self.now + ticks, seq: self.seq, thread: t, generation }));
    }

    /// Thread `t` spent a slice of fuel: the slice runs on the virtual processor that is
    /// free first, and the thread goes on when it has finished there.
    pub fn charge_slice(&mut self, t: usize) {
        let ticks = if self.chaos { (SLICE_TICKS * self.chaos_slice as i64 / FUEL_PER_SLICE as i64).max(1) } else { SLICE_TICKS };
        let wait = self.reserve_cpu(ticks);
        self.make_runnable_after(t, wait);
    }

    /// Books `ticks` of CPU time on the virtual processor that is free first and returns
    /// how long from now until they are done there (the work waits for a busy processor).
    pub fn reserve_cpu(&mut self, ticks: i64) -> i64 {
        let now = self.now;
        let Some(cpu) = self.cpu_free_at.iter_mut().min() else {
            return 0;
        };
        let end = (*cpu).max(now) + ticks;
        *cpu = end;
        self.cpu_time += ticks;
        end - now
    }

    /// The next number of the library's generator (xorshift64*), 32 bits.
    pub fn next_random(&mut self) -> u32 {
        let mut x = self.library_rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.library_rng = x;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
    }

    /// The next thread to run, if any is runnable.
    pub fn pick(&mut self) -> Option<usize> {
        if self.run_queue.is_empty() {
            return None;
        }
        let i = if self.rng == 0 { 0 } else { (self.next_schedule_random() % self.run_queue.len() as u64) as usize };
        self.run_queue.remove(i)
    }

    /// Whether this run explores schedules (a seed other than 0).
    pub fn explores(&self) -> bool {
        self.chaos
    }

    /// Under schedule exploration, the fuel of the slice about to run: from 2 up to
    /// [`FUEL_PER_SLICE`], short ones as likely as long ones (a random power of two, then a
    /// random length below it), so a preemption can fall anywhere in a short loop.
    pub fn chaos_fuel(&mut self) -> Option<u64> {
        if !self.chaos {
            return None;
        }
        let span = 1u64 << (self.next_schedule_random() % 14);
        let fuel = (2 + self.next_schedule_random() % span).min(FUEL_PER_SLICE);
        self.chaos_slice = fuel;
        Some(fuel)
    }

    /// The fuel a slice that ran out of it had spent (for `--max-steps`).
    pub fn slice_fuel(&self) -> u64 {
        if self.chaos {
            self.chaos_slice
        } else {
            FUEL_PER_SLICE
        }
    }

    /// The scheduler's own generator (xorshift64), seeded by `--seed`.
    fn next_schedule_random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// Parks the current thread (it already gave up the CPU); with `timeout` it wakes by
    /// itself at `now + timeout`, its call completing with `timeout_value`.
    pub fn park_current(&mut self, dst: Reg, timeout: Option<i64>, interruptible: bool) {
        let t = self.current;
        let th = &mut self.threads[t];
        th.status = Status::Parked { interruptible };
        th.parked_dst = Some(dst);
        th.park_generation += 1;
        if let Some(ticks) = timeout {
            self.seq += 1;
            let generation = th.park_generation;
            self.timeouts.push(Reverse(Timeout { due: self.now + ticks.max(0), seq: self.seq, thread: t, generation }));
        }
    }

    /// The earliest pending timeout that still matters.
    pub fn next_timeout(&mut self) -> Option<i64> {
        while let Some(Reverse(t)) = self.timeouts.peek().copied() {
            if self.is_live(&t) {
                return Some(t.due);
            }
            self.timeouts.pop();
        }
        None
    }

    fn is_live(&self, t: &Timeout) -> bool {
        let th = &self.threads[t.thread];
        matches!(th.status, Status::Parked { .. }) && th.park_generation == t.generation
    }

    /// Moves the clock to `due` and returns the threads whose timeouts expire then.
    pub fn advance_to(&mut self, due: i64) -> Vec<usize> {
        self.now = self.now.max(due);
        let mut woken = Vec::new();
        while let Some(Reverse(t)) = self.timeouts.peek().copied() {
            if t.due > self.now {
                break;
            }
            self.timeouts.pop();
            if self.is_live(&t) {
                woken.push(t.thread);
            }
        }
        woken
    }

    pub fn alive_foreground(&self) -> bool {
        self.threads.iter().any(|t| !t.background && !matches!(t.status, Status::Finished | Status::Unstarted))
    }

    pub fn thread_of(&self, object: GcRef) -> Option<usize> {
        self.threads.iter().position(|t| t.object == Some(object))
    }

    /// Heap references held by threads that are not running (their registers and objects).
    pub fn for_each_root(&self, mut f: impl FnMut(Value)) {
        for (i, t) in self.threads.iter().enumerate() {
            if let Some(o) = t.object {
                f(Value::Ref(o));
            }
            if i != self.current {
                t.state.for_each_root(&mut f);
            }
        }
    }
}

/// A well-mixed nonzero state from any seed (0 included), for xorshift.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    if z == 0 {
        1
    } else {
        z
    }
}
