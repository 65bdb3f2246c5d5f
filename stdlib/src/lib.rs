//! The cs-lite base class library, embedded: every `.cs-lite` file under `stdlib/System`.
