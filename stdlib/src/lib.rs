//! The cs-lite base class library, embedded: every `.cs-lite` file under `stdlib/System`,
//! as `(path, text)` pairs the compiler parses before the user's program.

include!(concat!(env!("OUT_DIR"), "/sources.rs"));
