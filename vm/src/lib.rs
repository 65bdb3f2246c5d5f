//! The cs-lite virtual machine: compiler, bytecode, interpreter and runtime.

pub mod bench;
pub mod bytecode;
pub mod cli;
pub mod compiler;
pub mod deep_stack;
pub mod driver;
pub mod explore;
pub mod interp;
pub mod lower;
pub mod metadata;
pub mod numerics;
#[cfg(not(target_arch = "wasm32"))]
pub mod repl;
pub mod runtime;
pub mod value;
