//! The cs-lite base class library, embedded: every `.cs-lite` file under `stdlib/System`
//! and `stdlib/BenchmarkDotNet`, as `(path, text)` pairs the compiler parses before the
//! user's program, and each file's skeleton (member bodies blanked) for declaring the
//! library without parsing its bodies, and each skeleton's syntax tree as an image, so
//! startup decodes the library's declarations instead of parsing them.

include!(concat!(env!("OUT_DIR"), "/sources.rs"));
include!(concat!(env!("OUT_DIR"), "/skeletons.rs"));
include!(concat!(env!("OUT_DIR"), "/images.rs"));
