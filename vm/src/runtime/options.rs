//! Run-time settings chosen on the command line: the simulated machine and the program's
//! own command-line arguments.

/// How the virtual machine runs a program.
#[derive(Clone, Debug)]
pub struct VmOptions {
    /// `Environment.ProcessorCount`, and the thread pool's minimum worker count.
    pub cpus: u32,
    /// Seeds the thread scheduler's choices and the random bytes behind `new Random()`,
    /// `Random.Shared` and `Guid.NewGuid()` (`host_model::Entropy`).
    pub seed: u64,
    /// `DateTime.UtcNow` when the program starts, in `DateTime` ticks (`--now`; default
    /// `host_model::DEFAULT_START`); the virtual clock moves it on.
    pub now_ticks: i64,
    /// Print allocation and scheduling statistics after the program ends.
    pub stats: bool,
    /// `Environment.GetCommandLineArgs()[0]`.
    pub program_name: String,
    /// Arguments after the program file, passed to `Main(string[] args)`.
    pub args: Vec<String>,
    /// Stop the program after about this many loop iterations (`--max-steps`).
    pub max_steps: Option<u64>,
    /// The most bytes the managed heap may hold before allocation throws
    /// `OutOfMemoryException` (`--max-heap`; default [`super::heap::default_limit`]).
    pub max_heap: Option<usize>,
    /// `--trace` and `--timeline`: what to do with the run's events.
    pub trace: super::trace::TraceOptions,
    /// A runtime-async frame that was resumed and suspends again refills the continuation
    /// it was resumed from instead of allocating one (dotnet/runtime PR #125556,
    /// `JitAsyncReuseContinuations`): one continuation per invocation, not per suspension.
    pub reuse_continuations: bool,
    /// `--explore N`: run the program under seeds 0 to N-1 and compare the runs
    /// ([`crate::explore`]).
    pub explore: Option<u64>,
    /// `--sandbox`: the program gets an in-memory file system (seeded from `sandbox_dir`),
    /// no host environment variables, and the limits below by default
    /// ([`VmOptions::sandboxed`]).
    pub sandbox: bool,
    /// `--sandbox-dir DIR`: the folder whose files the sandbox's file system starts with.
    pub sandbox_dir: Option<std::path::PathBuf>,
    /// The most bytes the program may write to standard output and error together
    /// (`--max-output`); beyond it the program is stopped.
    pub max_output: Option<usize>,
    /// Where `Console.In` reads from, and whether the console's streams are redirected.
    pub console: ConsoleOptions,
}

/// The program's standard streams as `System.Console` sees them.
#[derive(Clone, Debug)]
pub struct ConsoleOptions {
    /// The text of standard input, or `None` to read the host's.
    pub stdin: Option<String>,
    /// `Console.IsInputRedirected`, `IsOutputRedirected`, `IsErrorRedirected`. A redirected
    /// output gets no colour escapes; a redirected input cannot `ReadKey`.
    pub input_redirected: bool,
    pub output_redirected: bool,
    pub error_redirected: bool,
}

impl Default for ConsoleOptions {
    /// What the test harness and the oracle have: empty input, every stream redirected.
    fn default() -> Self {
        ConsoleOptions { stdin: Some(String::new()), input_redirected: true, output_redirected: true, error_redirected: true }
    }
}

impl ConsoleOptions {
    /// The host's own streams, redirected unless they are terminals.
    pub fn host() -> Self {
        use std::io::IsTerminal;
        ConsoleOptions {
            stdin: None,
            input_redirected: !std::io::stdin().is_terminal(),
            output_redirected: !std::io::stdout().is_terminal(),
            error_redirected: !std::io::stderr().is_terminal(),
        }
    }
}

impl Default for VmOptions {
    fn default() -> Self {
        VmOptions {
            cpus: 2,
            seed: 0,
            now_ticks: super::host_model::DEFAULT_START_TICKS,
            stats: false,
            program_name: "program".to_string(),
            args: Vec::new(),
            max_steps: None,
            max_heap: None,
            trace: Default::default(),
            reuse_continuations: true,
            explore: None,
            sandbox: false,
            sandbox_dir: None,
            max_output: None,
            console: ConsoleOptions::default(),
        }
    }
}

/// `--sandbox`'s limits when the command line does not set them.
pub const SANDBOX_MAX_STEPS: u64 = 1_000_000_000;
pub const SANDBOX_MAX_HEAP: usize = 512 << 20;
pub const SANDBOX_MAX_OUTPUT: usize = 16 << 20;

impl VmOptions {
    /// Under `--sandbox`, the limits the command line left unset get the sandbox's
    /// defaults (`--sandbox-dir` implies `--sandbox`).
    pub fn sandboxed(mut self) -> VmOptions {
        self.sandbox |= self.sandbox_dir.is_some();
        if self.sandbox {
            self.max_steps = self.max_steps.or(Some(SANDBOX_MAX_STEPS));
            self.max_heap = self.max_heap.or(Some(SANDBOX_MAX_HEAP));
            self.max_output = self.max_output.or(Some(SANDBOX_MAX_OUTPUT));
        }
        self
    }
}

/// A size in bytes as `--max-heap` takes it: a number, optionally followed by `K`, `M` or
/// `G` (binary multiples).
pub fn parse_size(s: &str) -> Option<usize> {
    let (digits, shift) = match s.as_bytes().last()?.to_ascii_uppercase() {
        b'K' => (&s[..s.len() - 1], 10),
        b'M' => (&s[..s.len() - 1], 20),
        b'G' => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: usize = digits.parse().ok()?;
    n.checked_mul(1usize << shift)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_take_binary_suffixes() {
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("64K"), Some(64 << 10));
        assert_eq!(parse_size("3m"), Some(3 << 20));
        assert_eq!(parse_size("2G"), Some(2 << 30));
        assert_eq!(parse_size("G"), None);
        assert_eq!(parse_size("-1M"), None);
    }
}
