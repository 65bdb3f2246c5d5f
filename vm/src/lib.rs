//! The cs-lite virtual machine: compiler, bytecode, interpreter and runtime.
