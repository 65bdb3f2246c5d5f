//! A thread with a deep stack for the compiler's recursive stages. Binding and emitting
//! recurse once per level of an expression, and the parser lets through trees up to
//! `grammar`'s nesting limit (CS8078 beyond it): a 5 000-term `a + a + …` or
//! `f(f(…))` 2 500 deep needs far more stack than a thread's default. The interpreter
//! never recurses per managed call, so running it there too costs nothing.

/// The stack of the thread that compiles and runs a program: room for the deepest tree
/// the parser accepts, many times over (it is reserved, not committed, until used).
pub const DEEP_STACK_BYTES: usize = 256 << 20;

/// Runs `work` on a new thread with a [`DEEP_STACK_BYTES`] stack and returns its result
/// (a panic in it goes on in the caller); the error says why the thread could not start.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_on_deep_stack<R: Send>(work: impl FnOnce() -> R + Send) -> std::io::Result<R> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new().name("vm".into()).stack_size(DEEP_STACK_BYTES).spawn_scoped(scope, work)?;
        match handle.join() {
            Ok(result) => Ok(result),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// WebAssembly has no threads: `work` runs on the stack the module was linked with.
#[cfg(target_arch = "wasm32")]
pub fn run_on_deep_stack<R: Send>(work: impl FnOnce() -> R + Send) -> std::io::Result<R> {
    Ok(work())
}
