//! The cs-lite virtual machine: compiler, bytecode, interpreter and runtime.

pub mod bytecode;
pub mod compiler;
pub mod driver;
pub mod interp;
pub mod metadata;
pub mod runtime;
