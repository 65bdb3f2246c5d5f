//! The `vm` command.
fn main() {}
